// The DWARF location expression compiler (dwarf/location.h) and the
// function pattern parser (dwarf/function_pattern.h).
#include "dwarf/function_pattern.h"
#include "dwarf/location.h"

#include <dwarf.h>
#include <gtest/gtest.h>

using namespace stap;
using debuginfo::VarLocation;

namespace {

Dwarf_Op op(uint8_t atom, Dwarf_Word number = 0, Dwarf_Word number2 = 0) {
  Dwarf_Op o{};
  o.atom = atom;
  o.number = number;
  o.number2 = number2;
  return o;
}

VarLocation compile(const std::vector<Dwarf_Op> &ops, const char *arch, std::string &why) {
  dwarf::LocationContext ctx(*arch::find_arch(arch));
  ctx.frame_base = [](std::string &) { return std::optional<std::string>("FB"); };
  ctx.cfa = [](std::string &) { return std::optional<std::string>("CFA"); };
  return dwarf::compile_location(ops.data(), ops.size(), ctx, why);
}

TEST(DwarfLocation, RegisterIsTheValueFromPtRegsThroughTheArchTable) {
  std::string why;
  VarLocation l = compile({op(DW_OP_reg5)}, "x86_64", why);
  EXPECT_EQ(l.kind, VarLocation::Value);
  EXPECT_EQ(l.c_expr, "((unsigned long)(c->regs)->di)");
  l = compile({op(DW_OP_reg5)}, "i386", why); // i386 numbers: 5 is ebp
  EXPECT_EQ(l.c_expr, "((unsigned long)(c->regs)->bp)");
  l = compile({op(DW_OP_regx, 12)}, "x86_64", why);
  EXPECT_EQ(l.c_expr, "((unsigned long)(c->regs)->r12)");
}

TEST(DwarfLocation, BaseRegisterPlusOffsetIsAnAddress) {
  std::string why;
  VarLocation l = compile({op(DW_OP_breg7, static_cast<Dwarf_Word>(-16))}, "x86_64", why);
  EXPECT_EQ(l.kind, VarLocation::Address);
  EXPECT_EQ(l.c_expr, "(((unsigned long)(c->regs)->sp) - 0x10UL)");
}

TEST(DwarfLocation, FrameBaseAndCfa) {
  std::string why;
  VarLocation l = compile({op(DW_OP_fbreg, static_cast<Dwarf_Word>(-20))}, "x86_64", why);
  EXPECT_EQ(l.kind, VarLocation::Address);
  EXPECT_EQ(l.c_expr, "(FB - 0x14UL)");
  l = compile({op(DW_OP_call_frame_cfa), op(DW_OP_plus_uconst, 8)}, "x86_64", why);
  EXPECT_EQ(l.c_expr, "(CFA + 0x8UL)");
}

TEST(DwarfLocation, StackValueAndArithmetic) {
  std::string why;
  VarLocation l = compile({op(DW_OP_breg3, 0), op(DW_OP_lit10), op(DW_OP_mul), op(DW_OP_stack_value)},
                          "x86_64", why);
  EXPECT_EQ(l.kind, VarLocation::Value);
  EXPECT_EQ(l.c_expr, "(((unsigned long)(c->regs)->bx) * 0xaUL)");
  l = compile({op(DW_OP_lit0), op(DW_OP_stack_value)}, "x86_64", why);
  EXPECT_EQ(l.c_expr, "0x0UL");
}

TEST(DwarfLocation, RegisterPiecesMakeOneValue) {
  // A long long in eax:edx on i386.
  std::string why;
  VarLocation l = compile({op(DW_OP_reg0), op(DW_OP_piece, 4), op(DW_OP_reg2), op(DW_OP_piece, 4)},
                          "i386", why);
  EXPECT_EQ(l.kind, VarLocation::Value);
  EXPECT_EQ(l.c_expr, "((((unsigned long long)((unsigned long)(c->regs)->ax)) & 0xffffffffULL) | "
                      "((((unsigned long long)((unsigned long)(c->regs)->dx)) & 0xffffffffULL) << 32))");
}

TEST(DwarfLocation, OptimizedOutAndUnsupportedSayWhy) {
  std::string why;
  EXPECT_EQ(compile({}, "x86_64", why).kind, VarLocation::Unavailable);
  EXPECT_EQ(why, "optimized out");
  EXPECT_EQ(compile({op(DW_OP_reg0), op(DW_OP_piece, 4), op(DW_OP_piece, 4)}, "i386", why).kind,
            VarLocation::Unavailable);
  EXPECT_EQ(why, "partly optimized out");
  static const unsigned char rdi[] = {DW_OP_reg5};
  EXPECT_EQ(compile({op(DW_OP_entry_value, 1, reinterpret_cast<Dwarf_Word>(rdi))}, "x86_64", why)
                .kind,
            VarLocation::Unavailable);
  EXPECT_NE(why.find("DW_OP_entry_value of register di"), std::string::npos);
  EXPECT_EQ(compile({op(DW_OP_reg30)}, "x86_64", why).kind, VarLocation::Unavailable);
  EXPECT_NE(why.find("no pt_regs field"), std::string::npos);
  EXPECT_EQ(compile({op(DW_OP_addr, 0x1000)}, "x86_64", why).kind, VarLocation::Unavailable);
}

// Operands at the edges of 64 bits, from hostile or broken DWARF (the
// location fuzzer's checks): an offset of INT64_MIN (its negation was
// undefined), a constant whose decimal form is not valid C, a register
// number that would wrap to a real register as an int.
TEST(DwarfLocation, ExtremeOperandsGiveValidC) {
  std::string why;
  const uint64_t min = 0x8000000000000000ull;
  VarLocation l = compile({op(DW_OP_breg0, min)}, "x86_64", why);
  EXPECT_EQ(l.c_expr, "(((unsigned long)(c->regs)->ax) - 0x8000000000000000UL)");
  l = compile({op(DW_OP_consts, min), op(DW_OP_stack_value)}, "x86_64", why);
  EXPECT_EQ(l.c_expr, "(unsigned long)0x8000000000000000ULL");
  l = compile({op(DW_OP_consts, static_cast<uint64_t>(-5)), op(DW_OP_stack_value)}, "i386", why);
  EXPECT_EQ(l.c_expr, "(unsigned long)0xfffffffffffffffbULL");
  EXPECT_EQ(compile({op(DW_OP_regx, 0x100000000ull)}, "x86_64", why).kind,
            VarLocation::Unavailable);
  EXPECT_NE(why.find("no pt_regs field"), std::string::npos);
}

// DW_OP_deref(_size) in the middle of an expression: a nofault read of the
// target's memory when the probe runs, named for its fault message.
TEST(DwarfLocation, DerefReadsMemoryWhenTheProbeRuns) {
  dwarf::LocationContext ctx(*arch::find_arch("x86_64"));
  ctx.where = "\"'$v'\"";
  std::string why;
  // GCC's "*(int *)(rbx + 8)" for a local that equals memory.
  std::vector<Dwarf_Op> ops = {op(DW_OP_breg3, 8), op(DW_OP_deref_size, 4), op(DW_OP_stack_value)};
  VarLocation l = dwarf::compile_location(ops.data(), ops.size(), ctx, why);
  EXPECT_EQ(l.kind, VarLocation::Value);
  EXPECT_EQ(l.c_expr, "((unsigned long)stp_tv_read(c, (unsigned long)((((unsigned long)(c->regs)->bx) "
                      "+ 0x8UL)), 4, 0, \"'$v'\"))");
  // A pointer in memory, then an offset from it: an address.
  ops = {op(DW_OP_fbreg, static_cast<Dwarf_Word>(-24)), op(DW_OP_deref), op(DW_OP_plus_uconst, 16)};
  ctx.frame_base = [](std::string &) { return std::optional<std::string>("FB"); };
  l = dwarf::compile_location(ops.data(), ops.size(), ctx, why);
  EXPECT_EQ(l.kind, VarLocation::Address);
  EXPECT_EQ(l.c_expr, "(((unsigned long)stp_tv_read(c, (unsigned long)((FB - 0x18UL)), 8, 0, "
                      "\"'$v'\")) + 0x10UL)");
  // i386 addresses are 4 bytes; user memory is read as such.
  dwarf::LocationContext user(*arch::find_arch("i386"));
  user.user = true;
  ops = {op(DW_OP_breg0, 0), op(DW_OP_deref)};
  l = dwarf::compile_location(ops.data(), ops.size(), user, why);
  EXPECT_EQ(l.c_expr, "((unsigned long)stp_tv_read(c, (unsigned long)(((unsigned long)(c->regs)->ax)), "
                      "4, 1, \"a DWARF location\"))");
  ops = {op(DW_OP_breg0, 0), op(DW_OP_deref_size, 3)};
  EXPECT_EQ(dwarf::compile_location(ops.data(), ops.size(), ctx, why).kind, VarLocation::Unavailable);
  EXPECT_EQ(why, "a DW_OP_deref_size of 3 bytes");
}

// DW_OP_entry_value: at the function's first instruction the value at
// entry is the value now; elsewhere it is gone, and the error says where
// to read it instead.
TEST(DwarfLocation, EntryValueAtTheEntryIsTheRegister) {
  dwarf::LocationContext ctx(*arch::find_arch("x86_64"));
  ctx.at_entry = true;
  static const unsigned char rsi[] = {DW_OP_reg4};
  std::vector<Dwarf_Op> ops = {op(DW_OP_entry_value, 1, reinterpret_cast<Dwarf_Word>(rsi)),
                               op(DW_OP_stack_value)};
  std::string why;
  VarLocation l = dwarf::compile_location(ops.data(), ops.size(), ctx, why);
  EXPECT_EQ(l.kind, VarLocation::Value);
  EXPECT_EQ(l.c_expr, "((unsigned long)(c->regs)->si)");
  // GCC's entry value of memory a register pointed at: breg5 0; deref.
  static const unsigned char mem[] = {DW_OP_breg5, 0x00, DW_OP_deref};
  ops = {op(DW_OP_GNU_entry_value, sizeof mem, reinterpret_cast<Dwarf_Word>(mem)),
         op(DW_OP_stack_value)};
  l = dwarf::compile_location(ops.data(), ops.size(), ctx, why);
  EXPECT_EQ(l.kind, VarLocation::Value);
  EXPECT_EQ(l.c_expr, "((unsigned long)stp_tv_read(c, (unsigned long)(((unsigned long)(c->regs)->di)), "
                      "8, 0, \"a DWARF location\"))");
  ctx.at_entry = false;
  EXPECT_EQ(dwarf::compile_location(ops.data(), ops.size(), ctx, why).kind,
            VarLocation::Unavailable);
  EXPECT_NE(why.find("DW_OP_entry_value of memory at a register) is not kept at this address"),
            std::string::npos);
  static const unsigned char bad[] = {DW_OP_lit1, DW_OP_lit2, DW_OP_plus};
  ctx.at_entry = true;
  ops = {op(DW_OP_entry_value, sizeof bad, reinterpret_cast<Dwarf_Word>(bad))};
  EXPECT_EQ(dwarf::compile_location(ops.data(), ops.size(), ctx, why).kind,
            VarLocation::Unavailable);
  EXPECT_EQ(why, "a DW_OP_entry_value of an unsupported form (an expression)");
}

// DW_OP_GNU_parameter_ref: what the callers pass (scope.cpp reads their
// call sites); without an answer, the reason.
TEST(DwarfLocation, ParameterRefAsksTheCallSites) {
  dwarf::LocationContext ctx(*arch::find_arch("x86_64"));
  std::vector<Dwarf_Op> ops = {op(DW_OP_GNU_parameter_ref, 0x2a), op(DW_OP_stack_value)};
  std::string why;
  EXPECT_EQ(dwarf::compile_location(ops.data(), ops.size(), ctx, why).kind,
            VarLocation::Unavailable);
  EXPECT_EQ(why, "only its callers know its value (DW_OP_GNU_parameter_ref)");
  ctx.parameter_ref = [](uint64_t die, std::string &w) -> std::optional<std::string> {
    if (die == 0x2a)
      return "0x7UL";
    w = "its callers pass values that differ or are not constants";
    return std::nullopt;
  };
  VarLocation l = dwarf::compile_location(ops.data(), ops.size(), ctx, why);
  EXPECT_EQ(l.kind, VarLocation::Value);
  EXPECT_EQ(l.c_expr, "0x7UL");
  ops[0].number = 0x30;
  EXPECT_EQ(dwarf::compile_location(ops.data(), ops.size(), ctx, why).kind,
            VarLocation::Unavailable);
  EXPECT_EQ(why, "only its callers know its value (DW_OP_GNU_parameter_ref): its callers pass "
                 "values that differ or are not constants");
}

TEST(DwarfLocation, StaticAddressesGoThroughTheRelocationCallback) {
  dwarf::LocationContext ctx(*arch::find_arch("x86_64"));
  ctx.address = [](uint64_t a, std::string &) {
    return std::optional<std::string>("(base + " + std::to_string(a) + ")");
  };
  std::string why;
  Dwarf_Op o = op(DW_OP_addr, 64);
  VarLocation l = dwarf::compile_location(&o, 1, ctx, why);
  EXPECT_EQ(l.kind, VarLocation::Address);
  EXPECT_EQ(l.c_expr, "(base + 64)");
}

TEST(DwarfFunctionPattern, NameFileLineRangeOffset) {
  std::string err;
  auto p = dwarf::parse_function_pattern("vfs_*", err);
  ASSERT_TRUE(p);
  EXPECT_EQ(p->function, "vfs_*");
  EXPECT_FALSE(p->has_file());
  p = dwarf::parse_function_pattern("f@fs/read_write.c", err);
  ASSERT_TRUE(p);
  EXPECT_EQ(p->file, "fs/read_write.c");
  EXPECT_EQ(p->lines, dwarf::FunctionPattern::Lines::None);
  p = dwarf::parse_function_pattern("*@x.c:42", err);
  ASSERT_TRUE(p);
  EXPECT_EQ(p->lines, dwarf::FunctionPattern::Lines::One);
  EXPECT_EQ(p->first, 42);
  p = dwarf::parse_function_pattern("f@x.c:10-20", err);
  ASSERT_TRUE(p);
  EXPECT_EQ(p->lines, dwarf::FunctionPattern::Lines::Range);
  EXPECT_EQ(p->last, 20);
  p = dwarf::parse_function_pattern("f@x.c:*", err);
  ASSERT_TRUE(p);
  EXPECT_EQ(p->lines, dwarf::FunctionPattern::Lines::All);
  p = dwarf::parse_function_pattern("f@x.c+3", err);
  ASSERT_TRUE(p);
  EXPECT_EQ(p->lines, dwarf::FunctionPattern::Lines::Offset);
  EXPECT_EQ(p->first, 3);
}

TEST(DwarfFunctionPattern, BadPatternsSayWhat) {
  std::string err;
  EXPECT_FALSE(dwarf::parse_function_pattern("f@x.c:abc", err));
  EXPECT_EQ(err, "'f@x.c:abc': bad line number 'abc'");
  EXPECT_FALSE(dwarf::parse_function_pattern("f@x.c:9-3", err));
  EXPECT_FALSE(dwarf::parse_function_pattern("@x.c", err));
  EXPECT_FALSE(dwarf::parse_function_pattern("f@", err));
}

TEST(DwarfFunctionPattern, FilesMatchByTheirTail) {
  EXPECT_TRUE(dwarf::file_matches("read_write.c", "/src/linux/fs/read_write.c"));
  EXPECT_TRUE(dwarf::file_matches("fs/read_write.c", "fs/read_write.c"));
  EXPECT_TRUE(dwarf::file_matches("*/read*.c", "/src/fs/read_write.c"));
  EXPECT_FALSE(dwarf::file_matches("write.c", "/src/fs/read_write.c"));
}

} // namespace
