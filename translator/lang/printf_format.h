// The printf format grammar of SystemTap: a format split into text and
// conversions (flags, width, precision, conversion letter), and the value
// types its arguments must have. Pass 2 checks calls with it; pass 3
// (codegen/format.h) turns a parsed format into the kernel's conversions.
#pragma once
#include "ast/ast.h"

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace stap::lang {

struct FormatConversion {
  std::string flags;              // any of "-+ #0"
  std::string width, precision;   // digits, "*" or empty
  char conv = 0;                  // 'd', 's', ...
};

// A format split into literal text and conversions, in order.
struct FormatPiece {
  std::string text;               // literal text when conv.conv == 0
  FormatConversion conv;
};

struct ParsedFormat {
  std::vector<FormatPiece> pieces;
  // The value types the arguments must have, in order ('*' widths included).
  std::vector<ast::Type> arg_types;
};

// Parses `fmt`; on error returns nullopt with a message in `err`.
std::optional<ParsedFormat> parse_format(std::string_view fmt, std::string &err);

} // namespace stap::lang
