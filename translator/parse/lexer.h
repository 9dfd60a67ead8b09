// Pass 1a: script text to tokens.
#pragma once
#include "parse/token.h"
#include "util/diag.h"

namespace stap::parse {

// Splits `src` into tokens, ending with one TokKind::End token. Lexical
// errors (an unterminated string or comment, a malformed number) are
// reported to `diag`; lexing continues after them.
TokenList lex(const SourceFile &src, Diagnostics &diag);

// Lexes text that does not come from a file of its own (a `$1` script
// argument): tokens get `loc` as their location.
TokenList lex_fragment(const std::string &text, const SourceLoc &loc,
                       Diagnostics &diag);

// Quotes a string value back into script syntax, escapes included.
std::string quote_string(const std::string &value);

} // namespace stap::parse
