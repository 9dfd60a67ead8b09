/* The entry points that keep their workspace on the caller's stack: for
 * host tools and tests, where stacks are large. Kernel modules (which
 * compile every unwind/uw_*.c) get nothing from this file: probe context
 * must use uw_step_ws() with a per-CPU workspace. */
#ifndef __KERNEL__
#include "uw_ws.h"

int uw_step(const struct uw_object *obj, struct uw_regs *r,
            const struct uw_memory *mem) {
  struct uw_workspace ws;
  uw_workspace_init(&ws);
  return uw_step_ws(obj, r, mem, &ws);
}

int uw_cfi_run(const struct uw_cfi_section *s, const struct uw_fde *fde,
               uw_u64 pc, struct uw_row *row) {
  struct uw_cfa_machine m;
  int rc = uw_cfi_run_in(&m, s, fde, pc);
  if (rc == 0)
    *row = m.row;
  return rc;
}
#endif
