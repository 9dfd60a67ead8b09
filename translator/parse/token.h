// Tokens of the script language.
#pragma once
#include "util/source.h"

#include <cstdint>
#include <string>
#include <vector>

namespace stap::parse {

enum class Tok : uint8_t {
  Ident,    // names and keywords; "@name" and "$name" included
  Number,
  String,   // text holds the value, escapes processed
  Op,       // punctuation and operators, longest match
  Embedded, // %{ ... %}: text holds the C code
  End,
};

struct Token {
  Tok kind = Tok::End;
  std::string text;
  int64_t number = 0;
  SourceLoc loc;
  bool space_before = false; // whitespace or a comment precedes it
};

} // namespace stap::parse
