// libFuzzer target for the printf format checker (lang/printf_format.cpp, codegen/format.cpp): any
// bytes are a format string. It must not crash; a format it accepts must
// give chunks that consume exactly its arguments, in order, and C that is
// well formed: string literals closed and free of raw control characters,
// parentheses balanced, and every width or precision written as a C number
// small enough for the kernel's vsnprintf (it keeps 23 bits of a width and
// 15 of a precision, and warns on a larger `*` width). Else abort().
#include "codegen/format.h"

#include <cstdio>
#include <cstdlib>
#include <string>

using namespace stap::codegen;
using namespace stap::lang;

namespace {

[[noreturn]] void fail(const std::string &what, const std::string &fmt, const std::string &c) {
  std::fprintf(stderr, "format check failed: %s\n--- format\n%s\n--- C\n%s\n", what.c_str(),
               fmt.c_str(), c.c_str());
  std::abort();
}

// Walks `c` as C: literals must close, parentheses balance outside them.
void check_c(const std::string &fmt, const std::string &c) {
  int depth = 0;
  for (size_t i = 0; i < c.size(); ++i) {
    char ch = c[i];
    if (ch == '"' || ch == '\'') {
      char q = ch;
      for (++i; i < c.size() && c[i] != q; ++i) {
        if (static_cast<unsigned char>(c[i]) < 0x20 || c[i] == 0x7f)
          fail("raw control character in a C literal", fmt, c);
        if (c[i] == '\\')
          ++i;
      }
      if (i >= c.size())
        fail("unterminated C literal", fmt, c);
      continue;
    }
    if (ch == '(')
      ++depth;
    if (ch == ')' && --depth < 0)
      fail("unbalanced ')'", fmt, c);
  }
  if (depth != 0)
    fail("unbalanced '('", fmt, c);
}

void check_number(const std::string &fmt, const std::string &n, unsigned long limit) {
  if (n.empty() || n == "*")
    return;
  if (n.size() > 9 || std::strtoul(n.c_str(), nullptr, 10) > limit)
    fail("width or precision " + n + " passed on unchecked", fmt, "");
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  std::string fmt(reinterpret_cast<const char *>(data), size);
  std::string err;
  auto parsed = parse_format(fmt, err);
  if (!parsed) {
    if (err.empty())
      fail("rejected without a message", fmt, "");
    return 0;
  }
  size_t next = 0;
  for (const FormatChunk &ch : format_chunks(*parsed)) {
    if (ch.first_arg != next)
      fail("a chunk's arguments do not follow the previous chunk's", fmt, "");
    next += ch.n_args;
    if (!ch.special && ch.kernel.casts.size() != ch.n_args)
      fail("casts and arguments differ in number", fmt, "");
  }
  if (next != parsed->arg_types.size())
    fail("chunks consume " + std::to_string(next) + " arguments of " +
             std::to_string(parsed->arg_types.size()),
         fmt, "");
  for (const FormatPiece &p : parsed->pieces) {
    check_number(fmt, p.conv.width, (1u << 23) - 1);
    check_number(fmt, p.conv.precision, (1u << 15) - 1);
  }
  std::vector<std::string> args;
  for (size_t i = 0; i < parsed->arg_types.size(); ++i)
    args.push_back("a" + std::to_string(i));
  check_c(fmt, format_call(*parsed, args, ""));
  check_c(fmt, format_call(*parsed, args, "buf"));
  return 0;
}
