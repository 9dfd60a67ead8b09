// Signal trampolines without CFI: recognised by their code bytes, the
// interrupted registers come from the sigcontext the kernel saved.
#include "cfi_builder.h"

#include <gtest/gtest.h>

namespace {

int step_without_table(uw_regs &r, FakeMemory &m) {
  uw_memory mem = m.mem();
  return uw_step(nullptr, &r, &mem);
}

TEST(SignalTrampoline, X86_64RestoreRtRestoresEveryRegister) {
  FakeMemory m;
  const uint64_t tramp = 0x7f0000001000, sp = 0x7ffd0000;
  m.put_bytes(tramp, {0x48, 0xc7, 0xc0, 0x0f, 0, 0, 0, 0x0f, 0x05});
  // sigcontext at sp + 40: r8..r15 rdi rsi rbp rbx rdx rax rcx rsp rip
  for (unsigned slot = 0; slot < 17; ++slot)
    m.put(sp + 40 + 8 * slot, 0xa000 + slot, 8);
  uw_regs r{};
  r.arch = UW_ARCH_X86_64;
  r.valid = 1u << UW_X86_64_SP | 1u << UW_X86_64_PC;
  r.val[UW_X86_64_SP] = sp;
  r.val[UW_X86_64_PC] = tramp; // the handler returned here
  ASSERT_EQ(step_without_table(r, m), UW_OK);
  EXPECT_EQ(uw_pc(&r), 0xa000u + 16);
  EXPECT_EQ(r.val[UW_X86_64_SP], 0xa000u + 15);
  EXPECT_EQ(r.val[0], 0xa000u + 13); // rax
  EXPECT_EQ(r.val[3], 0xa000u + 11); // rbx
  EXPECT_EQ(r.val[6], 0xa000u + 10); // rbp
  EXPECT_EQ(r.val[8], 0xa000u + 0);  // r8
  EXPECT_EQ(r.valid, 0x1ffffu);
  EXPECT_EQ(r.flags & UW_PC_EXACT, UW_PC_EXACT) << "interrupted, not called";
}

TEST(SignalTrampoline, I386RtSigreturnReadsTheUcontext) {
  FakeMemory m;
  const uint64_t tramp = 0xf7fc0600, sp = 0xffd00000;
  m.put_bytes(tramp, {0xb8, 0xad, 0, 0, 0, 0xcd, 0x80});
  // sigcontext at sp + 160: gs fs es ds edi esi ebp esp ebx edx ecx eax
  // trapno err eip
  for (unsigned slot = 0; slot < 15; ++slot)
    m.put(sp + 160 + 4 * slot, 0xb000 + slot, 4);
  uw_regs r{};
  r.arch = UW_ARCH_I386;
  r.valid = 1u << UW_I386_SP | 1u << UW_I386_PC;
  r.val[UW_I386_SP] = sp;
  r.val[UW_I386_PC] = tramp;
  ASSERT_EQ(step_without_table(r, m), UW_OK);
  EXPECT_EQ(uw_pc(&r), 0xb000u + 14);
  EXPECT_EQ(r.val[UW_I386_SP], 0xb000u + 7);
  EXPECT_EQ(r.val[5], 0xb000u + 6); // ebp
  EXPECT_EQ(r.val[0], 0xb000u + 11); // eax
}

TEST(SignalTrampoline, I386SigreturnReadsTheSigcontextAfterSig) {
  FakeMemory m;
  const uint64_t tramp = 0xf7fc0500, sp = 0xffd00000;
  m.put_bytes(tramp, {0x58, 0xb8, 0x77, 0, 0, 0, 0xcd, 0x80});
  for (unsigned slot = 0; slot < 15; ++slot)
    m.put(sp + 4 + 4 * slot, 0xc000 + slot, 4);
  uw_regs r{};
  r.arch = UW_ARCH_I386;
  r.valid = 1u << UW_I386_SP | 1u << UW_I386_PC;
  r.val[UW_I386_SP] = sp;
  r.val[UW_I386_PC] = tramp;
  ASSERT_EQ(step_without_table(r, m), UW_OK);
  EXPECT_EQ(uw_pc(&r), 0xc000u + 14);
  EXPECT_EQ(r.val[UW_I386_SP], 0xc000u + 7);
}

TEST(SignalTrampoline, OtherCodeIsNotMistakenForATrampoline) {
  FakeMemory m;
  m.put_bytes(0x1000, {0x48, 0xc7, 0xc0, 0x0f, 0, 0, 0, 0x0f, 0x04});
  uw_regs r{};
  r.arch = UW_ARCH_X86_64;
  r.valid = 1u << UW_X86_64_SP | 1u << UW_X86_64_PC;
  r.val[UW_X86_64_SP] = 0x2000;
  r.val[UW_X86_64_PC] = 0x1000;
  EXPECT_EQ(step_without_table(r, m), UW_ENOCFI);
}

} // namespace
