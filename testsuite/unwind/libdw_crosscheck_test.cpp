// unwind/ against libdw: for every FDE of the system's libc, libstdc++,
// libgcc_s and ld.so (64- and 32-bit), at sampled addresses, the CFA rule
// and the return-address rule unwind/ computes must equal what
// dwarf_cfi_addrframe() answers. Rules are compared in a canonical text
// form ("breg7+16", "cfa+-8", "expr[...]").
#include "symtab/unwind_table.h"

extern "C" {
#include "uw_cfi.h"
#include "uw_table.h"
}

#include <dwarf.h>
#include <elfutils/libdw.h>
#include <fcntl.h>
#include <gtest/gtest.h>
#include <libelf.h>
#include <unistd.h>

#include <sstream>

namespace {

// Operand layout of the DWARF operations CFI uses.
enum class Operands { None, U8, S8, U16, S16, U32, S32, U64, Uleb, Sleb, UlebSleb, Addr };

Operands operands_of(uint8_t op, bool &known) {
  known = true;
  if ((op >= 0x30 && op <= 0x4f) || (op >= 0x50 && op <= 0x6f))
    return Operands::None;
  if (op >= 0x70 && op <= 0x8f)
    return Operands::Sleb;
  switch (op) {
  case DW_OP_addr: return Operands::Addr;
  case DW_OP_const1u: case DW_OP_pick: case DW_OP_deref_size: return Operands::U8;
  case DW_OP_const1s: return Operands::S8;
  case DW_OP_const2u: return Operands::U16;
  case DW_OP_const2s: case DW_OP_skip: case DW_OP_bra: return Operands::S16;
  case DW_OP_const4u: return Operands::U32;
  case DW_OP_const4s: return Operands::S32;
  case DW_OP_const8u: case DW_OP_const8s: return Operands::U64;
  case DW_OP_constu: case DW_OP_plus_uconst: case DW_OP_regx: return Operands::Uleb;
  case DW_OP_consts: return Operands::Sleb;
  case DW_OP_bregx: return Operands::UlebSleb;
  default:
    known = op >= 0x06 && op <= 0x2e; // stack and arithmetic ops
    return Operands::None;
  }
}

std::string op_text(uint64_t atom, uint64_t n1, uint64_t n2) {
  std::ostringstream s;
  s << std::hex << atom << "(" << n1 << "," << n2 << ")";
  return s.str();
}

// Our raw expression bytes in the same form libdw's Dwarf_Op list takes.
std::string decode_expr(const uint8_t *p, size_t len, unsigned addr_size) {
  uw_cursor c;
  uw_cursor_init(&c, p, static_cast<uw_u32>(len), 0);
  std::string out;
  while (c.p < c.end && !c.err) {
    uint8_t op = uw_get_u8(&c);
    bool known;
    uint64_t n1 = 0, n2 = 0;
    switch (operands_of(op, known)) {
    case Operands::None: break;
    case Operands::U8: n1 = uw_get_u8(&c); break;
    case Operands::S8: n1 = (uint64_t)(int8_t)uw_get_u8(&c); break;
    case Operands::U16: n1 = uw_get_u16(&c); break;
    case Operands::S16: n1 = (uint64_t)(int16_t)uw_get_u16(&c); break;
    case Operands::U32: n1 = uw_get_u32(&c); break;
    case Operands::S32: n1 = (uint64_t)(int32_t)uw_get_u32(&c); break;
    case Operands::U64: n1 = uw_get_u64(&c); break;
    case Operands::Uleb: n1 = uw_get_uleb(&c); break;
    case Operands::Sleb: n1 = (uint64_t)uw_get_sleb(&c); break;
    case Operands::UlebSleb: n1 = uw_get_uleb(&c); n2 = (uint64_t)uw_get_sleb(&c); break;
    case Operands::Addr: n1 = uw_get_addr(&c, addr_size); break;
    }
    if (!known)
      return out + "?";
    out += op_text(op, n1, n2) + " ";
  }
  return out;
}

std::string libdw_expr(const Dwarf_Op *ops, size_t n) {
  std::string out;
  for (size_t i = 0; i < n; ++i) {
    uint64_t n2 = ops[i].atom == DW_OP_bregx ? ops[i].number2 : 0;
    out += op_text(ops[i].atom, ops[i].number, n2) + " ";
  }
  return out;
}

// ---- canonical rule texts -----------------------------------------------

std::string our_cfa(const uw_row &row, const uw_cfi_section &s) {
  if (row.cfa.kind == UW_CFA_EXPR)
    return "expr[" + decode_expr(s.data + row.cfa.value, row.cfa.len, s.addr_size) + "]";
  return "breg" + std::to_string(row.cfa.reg) + "+" + std::to_string(row.cfa.value);
}

std::string libdw_cfa(Dwarf_Frame *frame) {
  Dwarf_Op *ops;
  size_t n;
  if (dwarf_frame_cfa(frame, &ops, &n) != 0)
    return "error";
  if (n == 1 && ops[0].atom == DW_OP_bregx)
    return "breg" + std::to_string(ops[0].number) + "+" +
           std::to_string((int64_t)ops[0].number2);
  if (n == 1 && ops[0].atom >= DW_OP_breg0 && ops[0].atom <= DW_OP_breg31)
    return "breg" + std::to_string(ops[0].atom - DW_OP_breg0) + "+" +
           std::to_string((int64_t)ops[0].number);
  return "expr[" + libdw_expr(ops, n) + "]";
}

std::string our_rule(const uw_rule &r, const uw_cfi_section &s) {
  switch (r.kind) {
  case UW_RULE_UNDEF: return "undef";
  case UW_RULE_SAME: return "same";
  case UW_RULE_DEFAULT: return "default";
  case UW_RULE_OFFSET: return "cfa+" + std::to_string(r.value);
  case UW_RULE_VAL_OFFSET: return "val:cfa+" + std::to_string(r.value);
  case UW_RULE_REGISTER: return "reg" + std::to_string(r.reg);
  case UW_RULE_EXPR:
    return "expr[" + decode_expr(s.data + r.value, r.len, s.addr_size) + "]";
  case UW_RULE_VAL_EXPR:
    return "val:expr[" + decode_expr(s.data + r.value, r.len, s.addr_size) + "]";
  }
  return "?";
}

std::string libdw_rule(Dwarf_Frame *frame, int reg, unsigned addr_size) {
  Dwarf_Op mem[3], *ops;
  size_t n;
  if (dwarf_frame_register(frame, reg, mem, &ops, &n) != 0)
    return "error";
  // libdw.h: no operations with ops == ops_mem is "undefined", with
  // ops == NULL "same value".
  if (n == 0)
    return ops ? "undef" : "same";
  bool value = ops[n - 1].atom == DW_OP_stack_value;
  if (value)
    --n;
  std::string prefix = value ? "val:" : "";
  if (ops[0].atom == DW_OP_call_frame_cfa) {
    int64_t off = 0;
    if (n == 2 && ops[1].atom == DW_OP_plus_uconst)
      off = (int64_t)ops[1].number;
    else if (n != 1) // DW_CFA_expression: libdw shows the implied CFA push
      return prefix + "expr[" + libdw_expr(ops + 1, n - 1) + "]";
    if (addr_size == 4)
      off = (int32_t)off;
    return prefix + "cfa+" + std::to_string(off);
  }
  if (n == 1 && ops[0].atom == DW_OP_regx && !value)
    return "reg" + std::to_string(ops[0].number);
  return prefix + "expr[" + libdw_expr(ops, n) + "]";
}

// ---- the check ------------------------------------------------------------

struct Result {
  size_t fdes = 0, checks = 0, mismatches = 0;
  std::string first_mismatches;
};

Result crosscheck(const std::string &path) {
  Result res;
  std::string err;
  std::vector<uint8_t> blob = stap::symtab::build_unwind_table(path, err);
  EXPECT_FALSE(blob.empty()) << err;
  uw_table t;
  EXPECT_EQ(uw_table_open(&t, blob.data(), (uw_u32)blob.size()), 0);
  int fd = open(path.c_str(), O_RDONLY);
  elf_version(EV_CURRENT);
  Elf *elf = elf_begin(fd, ELF_C_READ_MMAP, nullptr);
  Dwarf_CFI *cfi = dwarf_getcfi_elf(elf);
  EXPECT_NE(cfi, nullptr);
  unsigned addr_size = t.arch == UW_ARCH_I386 ? 4 : 8;
  uint32_t lcg = 12345;
  for (uint32_t i = 0; cfi && i < t.fde_count; ++i) {
    uint64_t start = t.addr_base + uw_le32(t.fde_index + i * UW_FDE_ENTRY_SIZE);
    uw_cfi_section s;
    uw_fde fde;
    uw_cursor scratch;
    if (uw_table_find_fde(&t, start, &s, &fde, &scratch, nullptr) != 0) {
      ++res.mismatches;
      continue;
    }
    ++res.fdes;
    uint64_t len = fde.pc_end - fde.pc_begin;
    std::vector<uint64_t> samples = {fde.pc_begin, fde.pc_begin + len / 2,
                                     fde.pc_end - 1};
    for (int k = 0; k < 5; ++k) {
      lcg = lcg * 1103515245u + 12345u;
      samples.push_back(fde.pc_begin + (lcg >> 8) % len);
    }
    for (uint64_t pc : samples) {
      uw_row row;
      Dwarf_Frame *frame = nullptr;
      ++res.checks;
      std::string ours, theirs;
      if (uw_cfi_run(&s, &fde, pc, &row) == 0) {
        ours = our_cfa(row, s) + " ra=" + our_rule(row.reg[fde.cie.ra_reg], s) +
               (fde.cie.signal_frame ? " S" : "");
      } else {
        ours = "error";
      }
      if (dwarf_cfi_addrframe(cfi, pc, &frame) == 0) {
        bool signal = false;
        int ra = dwarf_frame_info(frame, nullptr, nullptr, &signal);
        theirs = libdw_cfa(frame) + " ra=" + libdw_rule(frame, ra, addr_size) +
                 (signal ? " S" : "");
        free(frame);
      } else {
        theirs = "error";
      }
      if (ours != theirs) {
        if (++res.mismatches <= 10) {
          std::ostringstream m;
          m << std::hex << "0x" << pc << ": ours " << ours << " libdw " << theirs << "\n";
          res.first_mismatches += m.str();
        }
      }
    }
  }
  if (cfi)
    dwarf_cfi_end(cfi);
  elf_end(elf);
  close(fd);
  return res;
}

class AgainstLibdw : public ::testing::TestWithParam<const char *> {};

TEST_P(AgainstLibdw, CfaAndReturnAddressRulesAgreeAtSampledAddresses) {
  if (access(GetParam(), R_OK) != 0)
    GTEST_SKIP() << GetParam() << " not installed";
  Result r = crosscheck(GetParam());
  EXPECT_GT(r.fdes, 50u);
  EXPECT_EQ(r.mismatches, 0u) << r.first_mismatches;
  std::printf("[ libdw    ] %s: %zu FDEs, %zu addresses, %zu mismatches\n",
              GetParam(), r.fdes, r.checks, r.mismatches);
}

INSTANTIATE_TEST_SUITE_P(
    SystemLibraries, AgainstLibdw,
    ::testing::Values("/usr/lib/x86_64-linux-gnu/libc.so.6",
                      "/usr/lib/x86_64-linux-gnu/libstdc++.so.6",
                      "/usr/lib/x86_64-linux-gnu/libgcc_s.so.1",
                      "/usr/lib/x86_64-linux-gnu/ld-linux-x86-64.so.2",
                      "/usr/lib/i386-linux-gnu/libc.so.6",
                      "/usr/lib32/libstdc++.so.6",
                      "/usr/lib/i386-linux-gnu/libgcc_s.so.1",
                      "/usr/lib/i386-linux-gnu/ld-linux.so.2"),
    [](const auto &param_info) {
      std::string n = param_info.param;
      std::string out = n.find("i386") != std::string::npos ||
                                n.find("lib32") != std::string::npos
                            ? "i386_"
                            : "x86_64_";
      for (char ch : n.substr(n.rfind('/') + 1))
        out += std::isalnum((unsigned char)ch) ? ch : '_';
      return out;
    });

} // namespace
