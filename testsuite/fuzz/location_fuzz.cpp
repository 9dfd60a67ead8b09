// libFuzzer target for the DWARF location-expression compiler
// (dwarf/location.cpp): the bytes are decoded into a DW_OP program as libdw
// would hand it over (an atom and up to two operands each; an implicit
// value and an entry value's block point at their bytes). It must not crash or trip a sanitizer, must
// say why when it gives up, and whatever it compiles must be well-formed C:
// parentheses balanced and every integer literal valid C (a decimal one
// fits in a long).
//
// The first byte picks the context: bit 0 i386 (else x86_64), bit 1 a frame
// base, bit 2 a CFA, bit 3 static addresses relocate, bit 4 user memory,
// bit 5 the probe is at the function's entry, bit 6 parameter references
// resolve.
#include "dwarf/location.h"

#include <cctype>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <dwarf.h>
#include <string>
#include <vector>

using namespace stap;

namespace {

[[noreturn]] void fail(const std::string &what, const std::string &c) {
  std::fprintf(stderr, "location check failed: %s\n--- C\n%s\n", what.c_str(), c.c_str());
  std::abort();
}

void check_c(const std::string &c) {
  int depth = 0;
  for (size_t i = 0; i < c.size(); ++i) {
    if (c[i] == '(')
      ++depth;
    if (c[i] == ')' && --depth < 0)
      fail("unbalanced ')'", c);
    // A decimal literal (not part of a name or a hex number) fits in a long.
    if (std::isdigit(static_cast<unsigned char>(c[i])) &&
        (i == 0 || !(std::isalnum(static_cast<unsigned char>(c[i - 1])) || c[i - 1] == '_'))) {
      if (c.compare(i, 2, "0x") == 0)
        continue;
      size_t j = i;
      while (j < c.size() && std::isdigit(static_cast<unsigned char>(c[j])))
        ++j;
      std::string digits = c.substr(i, j - i);
      if (digits.size() > 19 || (digits.size() == 19 && digits > "9223372036854775807"))
        fail("decimal literal " + digits + " does not fit in a long", c);
      i = j - 1;
    }
  }
  if (depth != 0)
    fail("unbalanced '('", c);
}

// Little-endian operand of `n` bytes from the input, sign-extended when
// `sign`; what is missing reads as zero.
uint64_t take(const uint8_t *&p, const uint8_t *end, int n, bool sign) {
  uint64_t v = 0;
  int got = 0;
  for (; got < n && p < end; ++got)
    v |= static_cast<uint64_t>(*p++) << (8 * got);
  if (sign && got > 0 && got < 8 && (v >> (8 * got - 1)) & 1)
    v |= ~0ULL << (8 * got);
  return v;
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  if (size == 0)
    return 0;
  uint8_t mode = data[0];
  const uint8_t *p = data + 1, *end = data + size;
  std::vector<Dwarf_Op> ops;
  while (p < end && ops.size() < 64) {
    Dwarf_Op op{};
    op.offset = static_cast<Dwarf_Word>(p - data);
    op.atom = *p++;
    // The next byte says how wide the operands are: low nibble the first,
    // high nibble the second (0-8 bytes), so any width can occur.
    uint8_t widths = p < end ? *p++ : 0;
    int w1 = (widths & 0xf) % 9, w2 = (widths >> 4) % 9;
    op.number = take(p, end, w1, widths & 0x80);
    if (op.atom == DW_OP_implicit_value || op.atom == DW_OP_entry_value ||
        op.atom == DW_OP_GNU_entry_value) {
      op.number = std::min<uint64_t>(op.number % 16, static_cast<uint64_t>(end - p));
      op.number2 = reinterpret_cast<Dwarf_Word>(p); // libdw: the block's bytes
      p += op.number;
    } else {
      op.number2 = take(p, end, w2, widths & 0x80);
    }
    ops.push_back(op);
  }
  const arch::Arch *a = arch::find_arch(mode & 1 ? "i386" : "x86_64");
  dwarf::LocationContext ctx(*a);
  ctx.user = mode & 16;
  if (mode & 2)
    ctx.frame_base = [](std::string &) -> std::optional<std::string> { return "fb(c)"; };
  if (mode & 4)
    ctx.cfa = [](std::string &) -> std::optional<std::string> { return "cfa(c)"; };
  if (mode & 8)
    ctx.address = [](uint64_t addr, std::string &) -> std::optional<std::string> {
      char b[48];
      std::snprintf(b, sizeof b, "reloc(0x%llxUL)", static_cast<unsigned long long>(addr));
      return std::string(b);
    };
  ctx.at_entry = mode & 32;
  if (mode & 64)
    ctx.parameter_ref = [](uint64_t die, std::string &) -> std::optional<std::string> {
      char b[48];
      std::snprintf(b, sizeof b, "param(0x%llxUL)", static_cast<unsigned long long>(die));
      return std::string(b);
    };
  std::string why;
  debuginfo::VarLocation loc = dwarf::compile_location(ops.data(), ops.size(), ctx, why);
  if (loc.kind == debuginfo::VarLocation::Unavailable) {
    if (why.empty())
      fail("unavailable without a reason", "");
    return 0;
  }
  if (loc.c_expr.empty())
    fail("an available location with no C", "");
  check_c(loc.c_expr);
  return 0;
}
