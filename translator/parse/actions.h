// Semantic-action helpers shared by the grammar parts.
#pragma once
#include "parse/grammar.h"

#include <boost/fusion/include/at_c.hpp>

namespace stap::parse {

using boost::fusion::at_c;
using x3::_attr;
using x3::_pass;
using x3::_val;

// `rule = part[set_val] >> ...`: the first part becomes the rule's value.
inline constexpr auto set_val = [](auto &ctx) { _val(ctx) = _attr(ctx); };

// Embedded C outside tapsets needs guru mode; SystemTap 4.8's words.
inline void check_embedded(ParseState &st, const Token *t, bool expression = false) {
  if (!st.embedded_allowed)
    throw ParseError{t, expression ? "embedded expression code in unprivileged script; need stap -g"
                                   : "embedded code in unprivileged script; need stap -g"};
}

// Splits a trailing pretty-print suffix off a `$name$$` spelling:
// returns "" / "$" / "$$" and shortens `name`.
inline std::string split_pretty_suffix(std::string &name) {
  size_t lead = 0;
  while (lead < name.size() && name[lead] == '$') ++lead;
  size_t end = name.size();
  while (end > lead && name[end - 1] == '$') --end;
  std::string suffix = name.substr(end);
  name.resize(end);
  return suffix;
}

} // namespace stap::parse
