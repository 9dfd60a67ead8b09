// SystemTap printf formats (parsed by lang/printf_format.h) rewritten into
// the kernel's vsnprintf conversions and the runtime's own.
#pragma once
#include "lang/printf_format.h"

#include <string>
#include <vector>

namespace stap::codegen {

using lang::FormatConversion;
using lang::FormatPiece;
using lang::ParsedFormat;

// The kernel vsnprintf format for `f`, and how each argument must be cast.
// `f` must have no special conversion (see is_special).
struct KernelFormat {
  std::string format;
  // What each argument goes through, applied to it in parentheses:
  // "(long long)", "(int)", "" for strings, "stp_fmt_width" and
  // "stp_fmt_precision" (runtime clamps) for `*` widths and precisions.
  std::vector<std::string> casts;
};
KernelFormat kernel_format(const ParsedFormat &f);

// Conversions the kernel's vsnprintf cannot do the SystemTap way: %p (0x
// and zero padding to pointer width), %b (binary), %m/%M (memory), %#c
// (escaped character). The runtime formats these itself.
bool is_special(const FormatConversion &c);

// A format cut where special conversions are: runs of ordinary text and
// conversions (one vsnprintf call each) and single special conversions.
struct FormatChunk {
  bool special = false;
  KernelFormat kernel;        // !special
  FormatConversion conv;      // special
  size_t first_arg = 0, n_args = 0; // the arguments this chunk consumes
};
std::vector<FormatChunk> format_chunks(const ParsedFormat &f);

} // namespace stap::codegen

namespace stap::codegen {

// The C expression that prints `f` with the argument values `args` (C
// expressions, in order): to the probe's output when `sprintf_buf` is
// empty (value (s64)0), else into that MAXSTRINGLEN buffer (value: it).
std::string format_call(const ParsedFormat &f, const std::vector<std::string> &args,
                        const std::string &sprintf_buf);

} // namespace stap::codegen
