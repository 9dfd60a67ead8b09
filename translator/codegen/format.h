// SystemTap printf formats, parsed and checked at translate time and
// rewritten into the kernel's vsnprintf conversions.
#pragma once
#include "ast/ast.h"

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace stap::codegen {

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

// The kernel vsnprintf format for `f`, and how each argument must be cast.
struct KernelFormat {
  std::string format;
  std::vector<std::string> casts; // "(long long)", "(int)", "" for strings
};
KernelFormat kernel_format(const ParsedFormat &f);

} // namespace stap::codegen
