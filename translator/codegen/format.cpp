#include "codegen/format.h"

#include "codegen/emitter.h"

#include <cctype>
#include <cstring>

namespace stap::codegen {
namespace {

// Whether `ch` is one of `set`: not strchr alone, which finds a NUL (a
// format may hold one: "\000") as the set's terminator.
bool one_of(char ch, const char *set) { return ch && std::strchr(set, ch); }

} // namespace

// Conversions the kernel's vsnprintf prints differently from SystemTap
// 4.8: %p %b %m %M, %#c (escapes) and %#o (4.8 always adds the '0').
bool is_special(const FormatConversion &c) {
  bool alt = c.flags.find('#') != std::string::npos;
  return one_of(c.conv, "pbmM") || (alt && (c.conv == 'c' || c.conv == 'o'));
}

namespace {

size_t args_of(const FormatConversion &c) {
  return (c.width == "*") + (c.precision == "*") + (c.conv ? 1 : 0);
}

KernelFormat kernel_format(const std::vector<FormatPiece> &pieces) {
  KernelFormat k;
  for (const FormatPiece &p : pieces) {
    const FormatConversion &c = p.conv;
    if (!c.conv) {
      for (char ch : p.text) {
        if (ch == '%')
          k.format += '%';
        k.format += ch;
      }
      continue;
    }
    k.format += '%' + c.flags + c.width;
    if (c.width == "*")
      k.casts.push_back("stp_fmt_width");
    if (!c.precision.empty()) {
      k.format += '.' + c.precision;
      if (c.precision == "*")
        k.casts.push_back("stp_fmt_precision");
    }
    switch (c.conv) {
    case 'd': case 'i': k.format += "lld"; k.casts.push_back("(long long)"); break;
    case 'u': case 'o': case 'x': case 'X':
      k.format += "ll";
      k.format += c.conv;
      k.casts.push_back("(unsigned long long)");
      break;
    case 'c': k.format += 'c'; k.casts.push_back("(int)"); break;
    case 's': k.format += 's'; k.casts.push_back(""); break;
    }
  }
  return k;
}

} // namespace

KernelFormat kernel_format(const ParsedFormat &f) { return kernel_format(f.pieces); }

std::vector<FormatChunk> format_chunks(const ParsedFormat &f) {
  std::vector<FormatChunk> chunks;
  std::vector<FormatPiece> run;
  size_t arg = 0, run_first = 0, run_args = 0;
  auto flush_run = [&] {
    if (!run.empty())
      chunks.push_back(FormatChunk{false, kernel_format(run), {}, run_first, run_args});
    run.clear();
    run_first = arg;
    run_args = 0;
  };
  for (const FormatPiece &p : f.pieces) {
    size_t n = args_of(p.conv);
    if (p.conv.conv && is_special(p.conv)) {
      flush_run();
      chunks.push_back(FormatChunk{true, {}, p.conv, arg, n});
      arg += n;
      run_first = arg;
      continue;
    }
    run.push_back(p);
    run_args += n;
    arg += n;
  }
  flush_run();
  return chunks;
}

std::string format_call(const ParsedFormat &f, const std::vector<std::string> &args,
                        const std::string &sprintf_buf) {
  bool to_string = !sprintf_buf.empty();
  std::vector<FormatChunk> chunks = format_chunks(f);
  auto args_of_chunk = [&](const FormatChunk &ch, const std::vector<std::string> &casts) {
    std::string r;
    for (size_t i = 0; i < ch.n_args; ++i)
      r += ", " + casts[i] + "(" + args[ch.first_arg + i] + ")";
    return r;
  };
  // The common case, one vsnprintf call.
  if (chunks.size() <= 1 && (chunks.empty() || !chunks[0].special)) {
    KernelFormat k = kernel_format(f);
    FormatChunk all{false, k, {}, 0, args.size()};
    std::string a = args_of_chunk(all, k.casts);
    return to_string ? "stp_sprintf(" + sprintf_buf + ", " + c_string_literal(k.format) + a + ")"
                     : "(stp_printf(c, " + c_string_literal(k.format) + a + "), (s64)0)";
  }
  std::string str = to_string ? sprintf_buf : "NULL";
  std::string r = "({ ";
  if (to_string)
    r += sprintf_buf + "[0] = '\\0'; ";
  for (const FormatChunk &ch : chunks) {
    if (!ch.special) {
      r += "stp_out_printf(c, " + str + ", " + c_string_literal(ch.kernel.format) +
           args_of_chunk(ch, ch.kernel.casts) + "); ";
      continue;
    }
    const FormatConversion &cv = ch.conv;
    size_t a = ch.first_arg;
    std::string width = cv.width == "*"    ? "stp_fmt_width(" + args[a++] + ")"
                        : cv.width.empty() ? (cv.conv == 'b' ? "8" : "-1")
                                           : cv.width;
    std::string precision = cv.precision == "*"    ? "stp_fmt_precision(" + args[a++] + ")"
                            : cv.precision.empty() ? "-1"
                                                   : cv.precision;
    r += "stp_out_special(c, " + str + ", '" + cv.conv + "', " + c_string_literal(cv.flags) +
         ", " + width + ", " + precision + ", " + args[a] + "); ";
  }
  return r + (to_string ? sprintf_buf : "(s64)0") + "; })";
}

} // namespace stap::codegen
