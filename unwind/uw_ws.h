/* Internal: the layout of struct uw_workspace (unwind.h publishes only its
 * size). Everything big one step needs lives here instead of on the stack,
 * so that a step fits the kernel's small stacks (8 KB on i386, shared with
 * whatever the probe interrupted). */
#ifndef UW_WS_H
#define UW_WS_H

#include "uw_cfi.h"
#include "uw_expr.h"

struct uw_ws {
  struct uw_row_slot rows[UW_ROW_CACHE]; /* the rows found for pcs (uw_cfi.h) */
  struct uw_cfi_section s;     /* the section of the FDE found for pc */
  struct uw_fde fde;           /* that FDE and its CIE */
  struct uw_cursor parse;      /* the FDE/CIE parser's cursor */
  struct uw_cie_cache cies;    /* parsed CIEs (uw_workspace_init) */
  struct uw_cfa_machine prog;  /* its row: the rules in effect at pc */
  struct uw_expr_machine expr; /* its regs and mem: the step's */
  struct uw_regs out;          /* the caller's registers under construction */
  uw_u64 lookup;               /* where the step looks pc up, link-time */
  uw_u64 cfa;                  /* the CFA of the frame being unwound */
  uw_u64 mask;                 /* of the address size */
  uw_u64 expr_val[UW_NREGS];   /* expression rules' results */
  uw_s8 expr_rc[UW_NREGS];     /* and their errors (0 or UW_E*) */
};

_Static_assert(sizeof(struct uw_ws) <= sizeof(struct uw_workspace),
               "UW_WORKSPACE_SIZE is too small for struct uw_ws");
_Static_assert(_Alignof(struct uw_ws) <= _Alignof(struct uw_workspace),
               "struct uw_workspace is not aligned enough for struct uw_ws");

/* The workspace is storage the unwinder reinterprets: callers never read
 * its opaque words, and unwind/ only ever accesses it as struct uw_ws. */
static inline struct uw_ws *uw_ws_of(struct uw_workspace *w) {
  return (struct uw_ws *)(void *)w;
}

#endif
