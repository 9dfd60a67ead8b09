// SystemTap's wildcards, in one place: the tapset index, probe point
// keywords, kernel and user symbols, tracepoint names, module names and
// target paths all match with these.
//
// One name (a probe point component, a symbol, a file name) matches as
// fnmatch(3) without flags does: `*` any run of characters, `?` one
// character, `[abc]` `[a-z]` `[!a]` `[^a]` `[[:alpha:]]` one of a set,
// `\x` the character x; a `[` without its `]` is itself.
//
// A dotted probe point matches component by component, and `**` in a
// component spans components, as SystemTap 4.8 reads it (checked against
// its `stap -l`): `a**b` is either the one component `a*b`, or `a*`
// followed by `**b`; so `**` covers one or more whole components, never
// none (`timer.**` is not `timer`), and `sys**open` matches `syscall.open`.
#pragma once
#include <string>
#include <string_view>
#include <vector>

namespace stap::lang {

// Does `s` hold a wildcard character (`*`, `?` or `[`)?
bool has_glob(std::string_view s);

// Does one name match `pattern`? With `hidden_needs_dot`, a name starting
// with '.' matches only a pattern starting with '.' (glob(7)'s rule for file
// names, fnmatch's FNM_PERIOD).
bool glob_match(std::string_view pattern, std::string_view name, bool hidden_needs_dot = false);

// The two readings of a component holding `**` (the first one):
// `a**b` -> one = "a*b"; or first = "a*" followed by rest = "**b".
struct DoubleStarReadings {
  std::string one, first, rest;
};
bool has_double_star(std::string_view component);
DoubleStarReadings double_star_readings(std::string_view component);

// "a.b.c" -> {"a", "b", "c"}.
std::vector<std::string_view> split_dotted(std::string_view dotted);

// Does the dotted pattern (no arguments) match the dotted name exactly?
bool point_matches(std::string_view pattern, std::string_view name);

// Could the dotted point `point` (no arguments, wildcards allowed) name
// `alias`, possibly followed by suffixes of it (`syscall.open.return` for
// the alias `syscall.open`)? The tapset index's question.
bool point_could_name_alias(std::string_view point, std::string_view alias);

} // namespace stap::lang
