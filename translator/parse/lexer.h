// Lexical analysis: script text to tokens. Script arguments are substituted
// here, as SystemTap does: $N pastes argument N's tokens, @N is argument N
// as a string literal, $# and @# are the argument count.
#pragma once
#include "parse/token.h"
#include "util/diag.h"

#include <memory>
#include <string>
#include <vector>

namespace stap::parse {

std::vector<Token> lex(const SourceFile &src, const std::vector<std::string> &script_args,
                       Diagnostics &diag);

} // namespace stap::parse
