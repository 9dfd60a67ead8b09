/* Internal: per-architecture facts the step needs. */
#ifndef UW_ARCH_H
#define UW_ARCH_H

#include "unwind.h"

/* The step's register facts, inline so that the step makes no calls for
 * them (each call costs stack on i386). unwind.h's uw_pc_reg(), uw_sp_reg()
 * and uw_addr_size() are these, for callers outside unwind/. */
static inline unsigned uw_arch_pc(uw_u8 arch) {
  return arch == UW_ARCH_I386 ? UW_I386_PC : UW_X86_64_PC;
}
static inline unsigned uw_arch_sp(uw_u8 arch) {
  return arch == UW_ARCH_I386 ? UW_I386_SP : UW_X86_64_SP;
}
static inline unsigned uw_arch_addr_size(uw_u8 arch) {
  return arch == UW_ARCH_I386 ? 4 : 8;
}

/* Registers the calling convention preserves across calls (a bit per DWARF
 * register). Registers outside this set that the CFI does not mention are
 * clobbered in the caller's frame, so the step marks them undefined rather
 * than passing on a callee's value as if it were the caller's. */
static inline uw_u32 uw_callee_saved(uw_u8 arch) {
  if (arch == UW_ARCH_I386) /* ebx esp ebp esi edi */
    return 1u << 3 | 1u << 4 | 1u << 5 | 1u << 6 | 1u << 7;
  /* rbx rbp rsp r12-r15 */
  return 1u << 3 | 1u << 6 | 1u << 7 | 1u << 12 | 1u << 13 | 1u << 14 |
         1u << 15;
}
/* All registers of the architecture. */
static inline uw_u32 uw_all_regs(uw_u8 arch) {
  return arch == UW_ARCH_I386 ? 0x1ffu : 0x1ffffu;
}

/* Recognises a signal-return trampoline at the pc of r by its code bytes
 * and, if it is one, replaces r by the interrupted context saved in the
 * signal frame (built in *out first, workspace memory, so that r stays
 * unchanged on failure). Returns UW_OK, UW_ENOCFI (not a trampoline) or an
 * error. */
int uw_sigtramp_step(struct uw_regs *r, const struct uw_memory *mem,
                     struct uw_regs *out);

#endif
