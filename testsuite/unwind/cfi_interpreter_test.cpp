// The CFI parser and CFA program interpreter on hand-assembled CFI: each
// test states a program opcode by opcode and the row it must produce.
#include "cfi_builder.h"

#include <gtest/gtest.h>

namespace {

// Opcodes used below (DWARF 5, section 6.4.2).
constexpr uint8_t kAdvance = 0x40, kOffset = 0x80, kRestore = 0xc0;
constexpr uint8_t kDefCfa = 0x0c, kDefCfaOffset = 0x0e, kDefCfaRegister = 0x0d;
constexpr uint8_t kRemember = 0x0a, kRestoreState = 0x0b, kUndefined = 0x07;
constexpr uint8_t kSameValue = 0x08, kRegister = 0x09, kDefCfaExpr = 0x0f;
constexpr uint8_t kExpression = 0x10, kValExpression = 0x16, kValOffset = 0x14;
constexpr uint8_t kAdvance1 = 0x02, kSetLoc = 0x01, kArgsSize = 0x2e;

// x86_64 CIE: CFA = rsp+8, return address at CFA-8.
const Bytes kX86_64Cie = {kDefCfa, 7, 8, kOffset | 16, 1};

uw_row row_at(const CfiBuilder &b, uint32_t fde_off, uint64_t pc) {
  uw_cfi_section s = b.section();
  uw_fde fde;
  EXPECT_EQ(uw_cfi_parse_fde(&s, fde_off, &fde), 0);
  uw_row row{};
  EXPECT_EQ(uw_cfi_run(&s, &fde, pc, &row), 0);
  return row;
}

TEST(CfiParse, EhFrameFdeDecodesPcRelativeRangeAndCieFields) {
  CfiBuilder b(true, 8);
  b.cie("zR", kX86_64Cie);
  uint32_t off = b.fde(0x4000, 0x30, {});
  uw_cfi_section s = b.section();
  uw_fde fde;
  ASSERT_EQ(uw_cfi_parse_fde(&s, off, &fde), 0);
  EXPECT_EQ(fde.pc_begin, 0x4000u);
  EXPECT_EQ(fde.pc_end, 0x4030u);
  EXPECT_EQ(fde.cie.code_align, 1u);
  EXPECT_EQ(fde.cie.data_align, -8);
  EXPECT_EQ(fde.cie.ra_reg, 16u);
  EXPECT_EQ(fde.cie.fde_enc, 0x1b);
  EXPECT_FALSE(fde.cie.signal_frame);
}

TEST(CfiParse, PersonalityLsdaAndSignalAugmentationsAreRead) {
  CfiBuilder b(true, 8);
  b.cie("zPLRS", kX86_64Cie);
  uint32_t off = b.fde(0x4000, 0x10, {});
  uw_cfi_section s = b.section();
  uw_fde fde;
  ASSERT_EQ(uw_cfi_parse_fde(&s, off, &fde), 0);
  EXPECT_EQ(fde.pc_begin, 0x4000u);
  EXPECT_EQ(fde.cie.lsda_enc, 0x1b);
  EXPECT_TRUE(fde.cie.signal_frame);
}

TEST(CfiParse, DebugFrameUsesAbsoluteAddressesAndCieOffsets) {
  CfiBuilder b(false, 4);
  b.cie("", {kDefCfa, 4, 4, kOffset | 8, 1}, -4, 8);
  uint32_t off = b.fde(0x8048000, 0x20, {});
  uw_cfi_section s = b.section();
  uw_fde fde;
  ASSERT_EQ(uw_cfi_parse_fde(&s, off, &fde), 0);
  EXPECT_EQ(fde.pc_begin, 0x8048000u);
  EXPECT_EQ(fde.pc_end, 0x8048020u);
  EXPECT_EQ(fde.cie.ra_reg, 8u);
  int kind;
  uint32_t next;
  ASSERT_EQ(uw_cfi_record(&s, 0, &kind, &next), 0);
  EXPECT_EQ(kind, UW_REC_CIE);
}

TEST(CfiParse, RecordLengthPastTheSectionIsRejected) {
  CfiBuilder b(true, 8);
  b.cie("zR", kX86_64Cie);
  uint32_t off = b.fde(0x4000, 0x10, {});
  Bytes bad = b.bytes();
  bad[off] = 0xff; // length now runs past the end
  uw_cfi_section s = b.section();
  s.data = bad.data();
  uw_fde fde;
  EXPECT_EQ(uw_cfi_parse_fde(&s, off, &fde), UW_EBADCFI);
}

TEST(CfaProgram, RowFollowsAdvanceLocAndStopsBeforeLaterRows) {
  CfiBuilder b(true, 8);
  b.cie("zR", kX86_64Cie);
  // push %rbx at +1: CFA = rsp+16, rbx at CFA-16; at +5: CFA = rsp+32.
  uint32_t off = b.fde(0x4000, 0x40,
                       {kAdvance | 1, kDefCfaOffset, 16, kOffset | 3, 2,
                        kAdvance | 4, kDefCfaOffset, 32});
  EXPECT_EQ(row_at(b, off, 0x4000).cfa.value, 8);
  EXPECT_EQ(row_at(b, off, 0x4000).reg[3].kind, UW_RULE_DEFAULT);
  uw_row r = row_at(b, off, 0x4001);
  EXPECT_EQ(r.cfa.value, 16);
  EXPECT_EQ(r.reg[3].kind, UW_RULE_OFFSET);
  EXPECT_EQ(r.reg[3].value, -16);
  EXPECT_EQ(row_at(b, off, 0x4004).cfa.value, 16);
  EXPECT_EQ(row_at(b, off, 0x4005).cfa.value, 32);
  EXPECT_EQ(row_at(b, off, 0x403f).cfa.value, 32);
}

TEST(CfaProgram, RememberAndRestoreStateBracketAnEpilogue) {
  CfiBuilder b(true, 8);
  b.cie("zR", kX86_64Cie);
  uint32_t off = b.fde(0x4000, 0x40,
                       {kAdvance | 1, kDefCfaOffset, 16, kOffset | 6, 2,
                        kAdvance | 4, kRemember, kDefCfaOffset, 8,
                        kRestore | 6, kAdvance | 1, kRestoreState, kArgsSize, 0});
  uw_row epilogue = row_at(b, off, 0x4005);
  EXPECT_EQ(epilogue.cfa.value, 8);
  EXPECT_EQ(epilogue.reg[6].kind, UW_RULE_DEFAULT); // restored to the CIE's
  uw_row after = row_at(b, off, 0x4006);
  EXPECT_EQ(after.cfa.value, 16);
  EXPECT_EQ(after.reg[6].kind, UW_RULE_OFFSET);
}

TEST(CfaProgram, RememberStateDeeperThanTheStackIsALimitNotAGuess) {
  CfiBuilder b(true, 8);
  b.cie("zR", kX86_64Cie);
  Bytes insns(UW_STATE_STACK + 1, kRemember);
  uint32_t off = b.fde(0x4000, 0x10, insns);
  uw_cfi_section s = b.section();
  uw_fde fde;
  ASSERT_EQ(uw_cfi_parse_fde(&s, off, &fde), 0);
  uw_row row;
  EXPECT_EQ(uw_cfi_run(&s, &fde, 0x4000, &row), UW_ELIMIT);
}

TEST(CfaProgram, RestoreStateWithoutRememberIsMalformed) {
  CfiBuilder b(true, 8);
  b.cie("zR", kX86_64Cie);
  uint32_t off = b.fde(0x4000, 0x10, {kRestoreState});
  uw_cfi_section s = b.section();
  uw_fde fde;
  ASSERT_EQ(uw_cfi_parse_fde(&s, off, &fde), 0);
  uw_row row;
  EXPECT_EQ(uw_cfi_run(&s, &fde, 0x4000, &row), UW_EBADCFI);
}

TEST(CfaProgram, RegisterRuleKindsAreRecorded) {
  CfiBuilder b(true, 8);
  b.cie("zR", kX86_64Cie);
  uint32_t off = b.fde(0x4000, 0x10,
                       {kUndefined, 3, kSameValue, 6, kRegister, 12, 5,
                        kValOffset, 13, 2, kDefCfaRegister, 6,
                        kExpression, 14, 2, 0x76, 0x10 /* breg6 +16 */,
                        kValExpression, 15, 1, 0x31 /* lit1 */});
  uw_row r = row_at(b, off, 0x4000);
  EXPECT_EQ(r.reg[3].kind, UW_RULE_UNDEF);
  EXPECT_EQ(r.reg[6].kind, UW_RULE_SAME);
  EXPECT_EQ(r.reg[12].kind, UW_RULE_REGISTER);
  EXPECT_EQ(r.reg[12].reg, 5);
  EXPECT_EQ(r.reg[13].kind, UW_RULE_VAL_OFFSET);
  EXPECT_EQ(r.reg[13].value, -16);
  EXPECT_EQ(r.cfa.reg, 6);
  EXPECT_EQ(r.cfa.value, 8);
  EXPECT_EQ(r.reg[14].kind, UW_RULE_EXPR);
  EXPECT_EQ(r.reg[14].len, 2);
  EXPECT_EQ(r.reg[15].kind, UW_RULE_VAL_EXPR);
}

TEST(CfaProgram, SetLocAndAdvanceLoc1MoveTheLocation) {
  CfiBuilder b(false, 8); // debug_frame: set_loc takes an absolute address
  b.cie("", kX86_64Cie);
  Bytes insns = {kAdvance1, 0x20, kDefCfaOffset, 24, kSetLoc};
  put_le(insns, 0x4030, 8);
  insns.push_back(kDefCfaOffset);
  insns.push_back(40);
  uint32_t off = b.fde(0x4000, 0x40, insns);
  EXPECT_EQ(row_at(b, off, 0x401f).cfa.value, 8);
  EXPECT_EQ(row_at(b, off, 0x4020).cfa.value, 24);
  EXPECT_EQ(row_at(b, off, 0x4030).cfa.value, 40);
}

TEST(CfaProgram, DefCfaExpressionIsKeptAsAnExpression) {
  CfiBuilder b(true, 8);
  b.cie("zR", kX86_64Cie);
  uint32_t off = b.fde(0x4000, 0x10, {kDefCfaExpr, 3, 0x77, 8, 0x06});
  uw_row r = row_at(b, off, 0x4000);
  EXPECT_EQ(r.cfa.kind, UW_CFA_EXPR);
  EXPECT_EQ(r.cfa.len, 3);
}

TEST(CfaProgram, UnknownOpcodeIsMalformed) {
  CfiBuilder b(true, 8);
  b.cie("zR", kX86_64Cie);
  uint32_t off = b.fde(0x4000, 0x10, {0x3f});
  uw_cfi_section s = b.section();
  uw_fde fde;
  ASSERT_EQ(uw_cfi_parse_fde(&s, off, &fde), 0);
  uw_row row;
  EXPECT_EQ(uw_cfi_run(&s, &fde, 0x4000, &row), UW_EBADCFI);
}

} // namespace
