// Tokens: what the lexer produces, the preprocessor rewrites and the
// grammar consumes.
#pragma once
#include "util/source.h"

#include <cstdint>
#include <string>
#include <vector>

namespace stap::parse {

enum class TokKind : uint8_t {
  Ident,     // identifiers and keywords; `$var`, `$$vars`, `$var$` too
  AtIdent,   // `@name`: a macro use or an @-operator (text keeps the '@')
  Number,    // text is the spelling; `number` the (64-bit wrapped) value
  String,    // text is the value, escapes processed
  Op,        // operators and punctuation, including `%(` `%?` `%:` `%)`
  Embedded,  // `%{ ... %}`: text is the C code between the braces
  ScriptArg, // `$1`, `@1`, `$#`, `@#` before the preprocessor replaces them
  End,       // end of input (always the last token)
};

struct Token {
  TokKind kind = TokKind::End;
  // Whitespace or a comment came before this token. Probe point components
  // glue adjacent tokens (`sys_*`), so adjacency matters.
  bool space_before = true;
  std::string text;
  int64_t number = 0;
  SourceLoc loc;

  bool is(TokKind k, std::string_view t) const { return kind == k && text == t; }
  bool is_op(std::string_view t) const { return is(TokKind::Op, t); }
  bool is_ident(std::string_view t) const { return is(TokKind::Ident, t); }
};

using TokenList = std::vector<Token>;

// How a token is named in "expected X before Y" messages.
std::string describe(const Token &t);

// Words the grammar reserves: they cannot name variables or functions.
bool is_keyword(std::string_view word);

} // namespace stap::parse
