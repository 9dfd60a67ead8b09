/* Internal: per-architecture facts the step needs. */
#ifndef UW_ARCH_H
#define UW_ARCH_H

#include "unwind.h"

/* Registers the calling convention preserves across calls (a bit per DWARF
 * register). Registers outside this set that the CFI does not mention are
 * clobbered in the caller's frame, so the step marks them undefined rather
 * than passing on a callee's value as if it were the caller's. */
uw_u32 uw_callee_saved(uw_u8 arch);
/* All registers of the architecture. */
uw_u32 uw_all_regs(uw_u8 arch);

/* Recognises a signal-return trampoline at the pc of r by its code bytes
 * and, if it is one, replaces r by the interrupted context saved in the
 * signal frame. Returns UW_OK, UW_ENOCFI (not a trampoline) or an error. */
int uw_sigtramp_step(struct uw_regs *r, const struct uw_memory *mem);

#endif
