// The unwind step on hand-built CFI and a fake stack: caller registers,
// return-address lookup, signal frames with and without CFI, and the
// honest stops (undefined registers, unreadable memory, no progress).
#include "cfi_builder.h"

#include <gtest/gtest.h>

#include <cstring>

namespace {

constexpr uint64_t kEhVaddr = 0x1000;
const Bytes kX86_64Cie = {0x0c, 7, 8, 0x80 | 16, 1}; // CFA=rsp+8, ra at CFA-8
const Bytes kI386Cie = {0x0c, 4, 4, 0x80 | 8, 1};    // CFA=esp+4, ra at CFA-4

uw_regs x86_64_regs(uint64_t pc, uint64_t sp) {
  uw_regs r{};
  r.arch = UW_ARCH_X86_64;
  r.flags = UW_PC_EXACT;
  r.valid = 0x1ffff;
  for (unsigned i = 0; i < 16; ++i)
    r.val[i] = 0x1000 + i; // recognisable register contents
  r.val[UW_X86_64_SP] = sp;
  r.val[UW_X86_64_PC] = pc;
  return r;
}

struct Fixture {
  CfiBuilder cfi{true, 8, kEhVaddr};
  Bytes blob;
  uw_table table{};
  FakeMemory stack;
  void finish(uint8_t arch = UW_ARCH_X86_64) {
    blob = make_table(cfi, arch, kEhVaddr);
    ASSERT_EQ(uw_table_open(&table, blob.data(), uint32_t(blob.size())), 0);
  }
  // A workspace as the kernel keeps it: reused, never cleared by hand
  // (filled with junk first, as per-CPU memory left by an earlier walk).
  uw_workspace ws;
  Fixture() {
    std::memset(&ws, 0xa5, sizeof ws);
    uw_workspace_init(&ws);
  }
  // Every step runs through both entry points, which must agree exactly:
  // uw_step_ws with the reused workspace and uw_step (fresh stack one).
  int step(uw_regs &r, uint64_t bias = 0) {
    uw_object obj{&table, bias};
    uw_memory m = stack.mem();
    uw_regs plain = r;
    int plain_rc = uw_step(&obj, &plain, &m);
    int rc = uw_step_ws(&obj, &r, &m, &ws);
    EXPECT_EQ(rc, plain_rc) << "uw_step_ws and uw_step disagree";
    EXPECT_EQ(std::memcmp(r.val, plain.val, sizeof r.val), 0)
        << "uw_step_ws and uw_step computed different registers";
    EXPECT_EQ(r.valid, plain.valid);
    EXPECT_EQ(r.arch, plain.arch);
    EXPECT_EQ(r.flags, plain.flags);
    return rc;
  }
};

TEST(Step, ComputesCallerPcSpAndSavedRegisters) {
  Fixture f;
  f.cfi.cie("zR", kX86_64Cie);
  // after push %rbx: CFA = rsp+16, rbx saved at CFA-16
  f.cfi.fde(0x4000, 0x40, {0x41, 0x0e, 16, 0x80 | 3, 2});
  f.finish();
  f.stack.put(0x7000, 0xb0b0, 8);   // saved rbx
  f.stack.put(0x7008, 0x5123, 8);   // return address
  uw_regs r = x86_64_regs(0x4010, 0x7000);
  ASSERT_EQ(f.step(r), UW_OK);
  EXPECT_EQ(uw_pc(&r), 0x5123u);
  EXPECT_EQ(r.val[UW_X86_64_SP], 0x7010u);
  EXPECT_EQ(r.val[3], 0xb0b0u);
  EXPECT_TRUE(uw_reg_valid(&r, 3));
  EXPECT_EQ(r.val[6], 0x1006u) << "callee-saved rbp is unchanged";
  EXPECT_FALSE(uw_reg_valid(&r, 0)) << "rax is clobbered by the call";
  EXPECT_FALSE(uw_reg_valid(&r, 2)) << "rcx is clobbered by the call";
  EXPECT_EQ(r.flags & UW_PC_EXACT, 0u);
}

TEST(Step, LoadBiasIsSubtractedBeforeTheLookup) {
  Fixture f;
  f.cfi.cie("zR", kX86_64Cie);
  f.cfi.fde(0x4000, 0x40, {});
  f.finish();
  const uint64_t bias = 0x7f0000000000;
  f.stack.put(0x7000, bias + 0x4100, 8);
  uw_regs r = x86_64_regs(bias + 0x4010, 0x7000);
  ASSERT_EQ(f.step(r, bias), UW_OK);
  EXPECT_EQ(uw_pc(&r), bias + 0x4100);
}

TEST(Step, ReturnAddressesAreLookedUpAtTheCallInstruction) {
  Fixture f;
  f.cfi.cie("zR", kX86_64Cie);
  f.cfi.fde(0x4000, 0x10, {});        // a noreturn call ends this function
  f.cfi.fde(0x4010, 0x10, {0x0e, 64}); // the next function, different CFA
  f.finish();
  f.stack.put(0x7000, 0x9999, 8);
  uw_regs r = x86_64_regs(0x4010, 0x7000);
  r.flags = 0; // 0x4010 is a return address: the call is at 0x400f
  ASSERT_EQ(f.step(r), UW_OK);
  EXPECT_EQ(r.val[UW_X86_64_SP], 0x7008u) << "used the first FDE's CFA";
}

TEST(Step, UndefinedReturnAddressIsTheOutermostFrame) {
  Fixture f;
  f.cfi.cie("zR", kX86_64Cie);
  f.cfi.fde(0x4000, 0x10, {0x07, 16}); // DW_CFA_undefined rip, as _start
  f.finish();
  uw_regs r = x86_64_regs(0x4004, 0x7000);
  uw_regs before = r;
  EXPECT_EQ(f.step(r), UW_END);
  EXPECT_EQ(std::memcmp(&r, &before, sizeof r), 0);
}

TEST(Step, CfaFromAnUndefinedRegisterStopsWithoutChangingRegisters) {
  Fixture f;
  f.cfi.cie("zR", kX86_64Cie);
  f.cfi.fde(0x4000, 0x10, {0x0c, 6, 16}); // CFA = rbp+16
  f.finish();
  uw_regs r = x86_64_regs(0x4004, 0x7000);
  r.valid &= ~(1u << 6); // rbp unknown (as after --scrub=syscall)
  uw_regs before = r;
  EXPECT_EQ(f.step(r), UW_EUNDEF);
  EXPECT_EQ(std::memcmp(&r, &before, sizeof r), 0);
}

TEST(Step, UnreadableReturnAddressIsReported) {
  Fixture f;
  f.cfi.cie("zR", kX86_64Cie);
  f.cfi.fde(0x4000, 0x10, {});
  f.finish();
  uw_regs r = x86_64_regs(0x4004, 0x7000); // nothing mapped at 0x7000
  EXPECT_EQ(f.step(r), UW_EREAD);
}

TEST(Step, NoFdeAndNoTrampolineIsNoCfi) {
  Fixture f;
  f.cfi.cie("zR", kX86_64Cie);
  f.cfi.fde(0x4000, 0x10, {});
  f.finish();
  uw_regs r = x86_64_regs(0x6000, 0x7000);
  EXPECT_EQ(f.step(r), UW_ENOCFI);
}

TEST(Step, AFrameThatDoesNotMoveIsRejected) {
  Fixture f;
  f.cfi.cie("zR", kX86_64Cie);
  // CFA = rsp+0 and rip = val_expression(DW_OP_breg7 0): with rsp equal
  // to pc, the caller would be this very frame again.
  f.cfi.fde(0x4000, 0x10, {0x0e, 0, 0x16, 16, 2, 0x77, 0x00});
  f.finish();
  uw_regs r = x86_64_regs(0x4004, 0x4004);
  EXPECT_EQ(f.step(r), UW_ENOPROGRESS);
}

TEST(Step, CfaAndRegisterExpressionsAreEvaluated) {
  Fixture f;
  f.cfi.cie("zR", kX86_64Cie);
  // CFA = *(rsp + 8) (DW_OP_breg7 8; DW_OP_deref); rbx = CFA - 32 as value
  f.cfi.fde(0x4000, 0x10,
            {0x0f, 3, 0x77, 8, 0x06, 0x16, 3, 3, 0x08, 32, 0x1c});
  f.finish();
  f.stack.put(0x7008, 0x8000, 8); // the CFA
  f.stack.put(0x7ff8, 0x4444, 8); // return address at CFA-8
  uw_regs r = x86_64_regs(0x4004, 0x7000);
  ASSERT_EQ(f.step(r), UW_OK);
  EXPECT_EQ(r.val[UW_X86_64_SP], 0x8000u);
  EXPECT_EQ(uw_pc(&r), 0x4444u);
  EXPECT_EQ(r.val[3], 0x8000u - 32);
}

TEST(Step, SignalFrameFdeMakesTheCallerPcExact) {
  Fixture f;
  f.cfi.cie("zRS", kX86_64Cie);
  f.cfi.fde(0x4000, 0x10, {});
  f.finish();
  f.stack.put(0x7000, 0x5000, 8);
  uw_regs r = x86_64_regs(0x4004, 0x7000);
  ASSERT_EQ(f.step(r), UW_OK);
  EXPECT_EQ(r.flags & UW_PC_EXACT, UW_PC_EXACT);
}

TEST(Step, I386FrameUsesFourByteSlotsAndTruncates) {
  Fixture f;
  f.cfi = CfiBuilder(true, 4, kEhVaddr);
  f.cfi.cie("zR", kI386Cie, -4, 8);
  f.cfi.fde(0x4000, 0x10, {0x41, 0x0e, 8, 0x80 | 5, 2}); // push ebp
  f.finish(UW_ARCH_I386);
  f.stack.put(0xff00, 0x1234, 4);     // saved ebp
  f.stack.put(0xff04, 0x80490a0, 4);  // return address
  uw_regs r{};
  r.arch = UW_ARCH_I386;
  r.flags = UW_PC_EXACT;
  r.valid = 0x1ff;
  r.val[UW_I386_SP] = 0xff00;
  r.val[UW_I386_PC] = 0x4008;
  ASSERT_EQ(f.step(r), UW_OK);
  EXPECT_EQ(uw_pc(&r), 0x80490a0u);
  EXPECT_EQ(r.val[UW_I386_SP], 0xff08u);
  EXPECT_EQ(r.val[5], 0x1234u);
  EXPECT_FALSE(uw_reg_valid(&r, 0)) << "eax is clobbered by the call";
}

TEST(Step, TableOfTheOtherArchitectureIsRefused) {
  Fixture f;
  f.cfi.cie("zR", kX86_64Cie);
  f.cfi.fde(0x4000, 0x10, {});
  f.finish(UW_ARCH_X86_64);
  uw_regs r = x86_64_regs(0x4004, 0x7000);
  r.arch = UW_ARCH_I386;
  r.val[UW_I386_PC] = 0x4004;
  EXPECT_EQ(f.step(r), UW_EBADTABLE);
}

// ---- The walk's CIE cache (uw_step_ws). The fixture checks every step
// against uw_step, whose workspace starts empty each time.

TEST(StepCieCache, ACieProgramThatMovesTheLocationIsNotReused) {
  Fixture f;
  // CFA = rsp+8, ra at CFA-8; 4 bytes into each function: CFA = rsp+16
  f.cfi.cie("zR", {0x0c, 7, 8, 0x80 | 16, 1, 0x44, 0x0e, 16});
  f.cfi.fde(0x4000, 0x10, {});
  f.cfi.fde(0x5000, 0x10, {});
  f.finish();
  f.stack.put(0x7008, 0x5003, 8); // ra of the first frame (CFA 0x7010)
  f.stack.put(0x7010, 0x6000, 8); // ra of the second (CFA 0x7018)
  uw_regs r = x86_64_regs(0x4008, 0x7000); // past the advance
  ASSERT_EQ(f.step(r), UW_OK);
  EXPECT_EQ(r.val[UW_X86_64_SP], 0x7010u);
  ASSERT_EQ(uw_pc(&r), 0x5003u);
  // looked up at 0x5002, before the advance: the CIE's row there differs
  ASSERT_EQ(f.step(r), UW_OK);
  EXPECT_EQ(r.val[UW_X86_64_SP], 0x7018u) << "CFA = rsp+8 before 0x5004";
  EXPECT_EQ(uw_pc(&r), 0x6000u);
  EXPECT_EQ(f.step(r), UW_ENOCFI);
}

TEST(StepCieCache, ACieProgramThatLeavesARememberedStateIsNotReused) {
  Fixture f;
  // CFA = rsp+8, ra at CFA-8, remembered; then CFA = rsp+32. Each FDE
  // restores the remembered state, which must exist in every step.
  f.cfi.cie("zR", {0x0c, 7, 8, 0x80 | 16, 1, 0x0a, 0x0e, 32});
  f.cfi.fde(0x4000, 0x10, {0x0b});
  f.cfi.fde(0x5000, 0x10, {0x0b});
  f.finish();
  f.stack.put(0x7000, 0x5005, 8);
  f.stack.put(0x7008, 0x9000, 8);
  uw_regs r = x86_64_regs(0x4004, 0x7000);
  ASSERT_EQ(f.step(r), UW_OK);
  EXPECT_EQ(r.val[UW_X86_64_SP], 0x7008u);
  ASSERT_EQ(f.step(r), UW_OK);
  EXPECT_EQ(r.val[UW_X86_64_SP], 0x7010u);
  EXPECT_EQ(uw_pc(&r), 0x9000u);
}

TEST(StepCieCache, MoreCiesThanSlotsInOneWalk) {
  Fixture f;
  // CIE i: CFA = rsp + 8(i+1), ra at CFA-8; FDE i at 0x4000 + 0x100 i.
  const unsigned kCies = 2 * UW_CIE_CACHE + 1;
  for (unsigned i = 0; i < kCies; ++i) {
    Bytes insns = {0x0c, 7};
    put_uleb(insns, 8 * (i + 1));
    insns.insert(insns.end(), {0x80 | 16, 1});
    f.cfi.cie("zR", insns);
    f.cfi.fde(0x4000 + 0x100 * i, 0x10, {});
  }
  f.finish();
  // A 3-lap walk through every function; the last return address is 0.
  const unsigned kFrames = 3 * kCies;
  uint64_t sp = 0x10000;
  for (unsigned k = 0; k < kFrames; ++k) {
    unsigned i = k % kCies, caller = (k + 1) % kCies;
    uint64_t cfa = sp + 8 * (i + 1);
    f.stack.put(cfa - 8, k + 1 < kFrames ? 0x4000 + 0x100 * caller + 5 : 0, 8);
    sp = cfa;
  }
  uw_regs r = x86_64_regs(0x4004, 0x10000);
  sp = 0x10000;
  for (unsigned k = 0; k + 1 < kFrames; ++k) {
    ASSERT_EQ(f.step(r), UW_OK) << "frame " << k;
    sp += 8 * (k % kCies + 1);
    EXPECT_EQ(r.val[UW_X86_64_SP], sp) << "frame " << k;
  }
  EXPECT_EQ(f.step(r), UW_END);
}

TEST(StepCieCache, WorkspaceInitForgetsTheTablesOfTheLastWalk) {
  // The same table memory holds a different table in the next walk, as
  // when a module's tables are replaced: uw_workspace_init() is what makes
  // the new CIE be read.
  Fixture f;
  f.cfi.cie("zR", {0x0c, 7, 8, 0x80 | 16, 1}); // CFA = rsp+8
  f.cfi.fde(0x4000, 0x10, {});
  f.finish();
  f.stack.put(0x7000, 0x5000, 8);
  uw_regs r = x86_64_regs(0x4004, 0x7000);
  ASSERT_EQ(f.step(r), UW_OK);
  EXPECT_EQ(r.val[UW_X86_64_SP], 0x7008u);

  CfiBuilder other(true, 8, kEhVaddr);
  other.cie("zR", {0x0c, 7, 16, 0x80 | 16, 2}); // CFA = rsp+16, ra at CFA-16
  other.fde(0x4000, 0x10, {});
  Bytes blob = make_table(other, UW_ARCH_X86_64, kEhVaddr);
  ASSERT_EQ(blob.size(), f.blob.size());
  std::memcpy(f.blob.data(), blob.data(), blob.size());
  ASSERT_EQ(uw_table_open(&f.table, f.blob.data(), uint32_t(f.blob.size())), 0);
  uw_workspace_init(&f.ws);
  r = x86_64_regs(0x4004, 0x7000);
  ASSERT_EQ(f.step(r), UW_OK);
  EXPECT_EQ(r.val[UW_X86_64_SP], 0x7010u);
  EXPECT_EQ(uw_pc(&r), 0x5000u);
}

// ---- The rows found for pcs, kept across walks (uw_step_ws). The fixture
// checks every step against uw_step, whose workspace starts empty.

TEST(StepRowCache, TheSamePcAgainGivesTheSameCallerFromNewRegisters) {
  Fixture f;
  f.cfi.cie("zR", kX86_64Cie);
  // after push %rbx: CFA = rsp+16, rbx saved at CFA-16
  f.cfi.fde(0x4000, 0x40, {0x41, 0x0e, 16, 0x80 | 3, 2});
  f.finish();
  for (uint64_t sp : {0x7000u, 0x7100u, 0x7000u}) {
    f.stack.put(sp, 0xb0b0 + sp, 8);    // saved rbx
    f.stack.put(sp + 8, 0x5123 + sp, 8); // return address
    uw_regs r = x86_64_regs(0x4010, sp);
    ASSERT_EQ(f.step(r), UW_OK) << "sp " << sp;
    EXPECT_EQ(uw_pc(&r), 0x5123u + sp);
    EXPECT_EQ(r.val[UW_X86_64_SP], sp + 16);
    EXPECT_EQ(r.val[3], 0xb0b0u + sp);
  }
}

TEST(StepRowCache, PcsOfOneFdeKeepTheirOwnRows) {
  Fixture f;
  f.cfi.cie("zR", kX86_64Cie);
  // 0x4000: CFA = rsp+8; from 0x4001: rsp+16; from 0x4005: rsp+24
  f.cfi.fde(0x4000, 0x40, {0x41, 0x0e, 16, 0x44, 0x0e, 24});
  f.finish();
  for (int lap = 0; lap < 2; ++lap)
    for (uint64_t pc : {0x4000u, 0x4003u, 0x4010u}) {
      uint64_t cfa = 0x7000 + (pc == 0x4000 ? 8 : pc == 0x4003 ? 16 : 24);
      f.stack.put(cfa - 8, 0x9000 + pc, 8);
      uw_regs r = x86_64_regs(pc, 0x7000);
      ASSERT_EQ(f.step(r), UW_OK) << "pc " << pc;
      EXPECT_EQ(r.val[UW_X86_64_SP], cfa) << "pc " << pc;
      EXPECT_EQ(uw_pc(&r), 0x9000u + pc);
    }
}

TEST(StepRowCache, TwoTablesWithTheSamePcsAreNotConfused) {
  Fixture a, b;
  a.cfi.cie("zR", {0x0c, 7, 8, 0x80 | 16, 1}); // CFA = rsp+8
  a.cfi.fde(0x4000, 0x10, {});
  a.finish();
  b.cfi.cie("zR", {0x0c, 7, 16, 0x80 | 16, 2}); // CFA = rsp+16, ra at CFA-16
  b.cfi.fde(0x4000, 0x10, {});
  b.finish();
  a.stack.put(0x7000, 0x5000, 8);
  for (int lap = 0; lap < 2; ++lap) {
    // one workspace for both tables: a's, as a kernel CPU's is for all
    uw_regs r = x86_64_regs(0x4004, 0x7000);
    uw_object oa{&a.table, 0}, ob{&b.table, 0};
    uw_memory m = a.stack.mem();
    ASSERT_EQ(uw_step_ws(&oa, &r, &m, &a.ws), UW_OK);
    EXPECT_EQ(r.val[UW_X86_64_SP], 0x7008u);
    r = x86_64_regs(0x4004, 0x7000);
    ASSERT_EQ(uw_step_ws(&ob, &r, &m, &a.ws), UW_OK);
    EXPECT_EQ(r.val[UW_X86_64_SP], 0x7010u);
    EXPECT_EQ(uw_pc(&r), 0x5000u);
  }
}

TEST(StepRowCache, MorePcsThanSlotsInEveryWalk) {
  Fixture f;
  // function i at 0x4000 + 0x40 i: CFA = rsp + 8(i % 5 + 1), ra at CFA-8
  const unsigned kFuncs = 3 * UW_ROW_CACHE;
  f.cfi.cie("zR", {0x0c, 7, 8, 0x80 | 16, 1});
  for (unsigned i = 0; i < kFuncs; ++i) {
    Bytes insns = {0x41, 0x0e};
    put_uleb(insns, 8 * (i % 5 + 1));
    f.cfi.fde(0x4000 + 0x40 * i, 0x40, insns);
  }
  f.finish();
  // a walk through every function, from the first to the last
  uint64_t sp = 0x10000;
  for (unsigned i = 0; i < kFuncs; ++i) {
    uint64_t cfa = sp + 8 * (i % 5 + 1);
    f.stack.put(cfa - 8, i + 1 < kFuncs ? 0x4000 + 0x40 * (i + 1) + 5 : 0, 8);
    sp = cfa;
  }
  for (int walk = 0; walk < 3; ++walk) {
    uw_regs r = x86_64_regs(0x4004, 0x10000);
    sp = 0x10000;
    for (unsigned i = 0; i + 1 < kFuncs; ++i) {
      ASSERT_EQ(f.step(r), UW_OK) << "walk " << walk << " frame " << i;
      sp += 8 * (i % 5 + 1);
      EXPECT_EQ(r.val[UW_X86_64_SP], sp) << "walk " << walk << " frame " << i;
    }
    EXPECT_EQ(f.step(r), UW_END);
  }
}

TEST(StepRowCache, WorkspaceInitForgetsTheRowsOfAReplacedTable) {
  Fixture f;
  f.cfi.cie("zR", {0x0c, 7, 8, 0x80 | 16, 1}); // CFA = rsp+8
  f.cfi.fde(0x4000, 0x10, {0x41, 0x0e, 16});    // from 0x4001: rsp+16
  f.finish();
  f.stack.put(0x7008, 0x5000, 8);
  uw_regs r = x86_64_regs(0x4004, 0x7000);
  ASSERT_EQ(f.step(r), UW_OK);
  EXPECT_EQ(r.val[UW_X86_64_SP], 0x7010u);

  // the same memory, another table: the FDE's own program differs, its
  // CIE does not
  CfiBuilder other(true, 8, kEhVaddr);
  other.cie("zR", {0x0c, 7, 8, 0x80 | 16, 1});
  other.fde(0x4000, 0x10, {0x41, 0x0e, 32}); // from 0x4001: rsp+32
  Bytes blob = make_table(other, UW_ARCH_X86_64, kEhVaddr);
  ASSERT_EQ(blob.size(), f.blob.size());
  std::memcpy(f.blob.data(), blob.data(), blob.size());
  ASSERT_EQ(uw_table_open(&f.table, f.blob.data(), uint32_t(f.blob.size())), 0);
  uw_workspace_init(&f.ws);
  f.stack.put(0x7018, 0x6000, 8);
  r = x86_64_regs(0x4004, 0x7000);
  ASSERT_EQ(f.step(r), UW_OK);
  EXPECT_EQ(r.val[UW_X86_64_SP], 0x7020u);
  EXPECT_EQ(uw_pc(&r), 0x6000u);
}

} // namespace
