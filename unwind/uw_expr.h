/* Internal: the DWARF expression evaluator, restricted to what CFI uses
 * (no DW_OP_call*, no TLS, no piece). */
#ifndef UW_EXPR_H
#define UW_EXPR_H

#include "uw_read.h"
#include "unwind.h"

#define UW_EXPR_STACK 16   /* DWARF stack depth */
#define UW_EXPR_MAX_OPS 512 /* bounds loops built from DW_OP_skip/bra */

/* The evaluator's state; it lives in the caller's workspace. The step sets
 * regs and mem once, then evaluates each expression rule. */
struct uw_expr_machine {
  uw_u64 stack[UW_EXPR_STACK];
  unsigned sp;
  unsigned addr_size;
  uw_u64 mask;
  const struct uw_regs *regs;
  const struct uw_memory *mem;
  struct uw_cursor c; /* over the expression */
};

/* Evaluates len bytes of expression against m->regs and m->mem. If initial
 * is not null, *initial is pushed first (the CFA, for DW_CFA_expression and
 * DW_CFA_val_expression). Returns 0 with *result, or a negative UW_E*. */
int uw_expr_eval(struct uw_expr_machine *m, const uw_u8 *expr, uw_u32 len,
                 const uw_u64 *initial, uw_u64 *result);

/* Reads size (1 to 8) bytes of the unwound process at addr as a
 * little-endian value. Returns 0 or UW_EREAD. */
int uw_mem_read_le(const struct uw_memory *mem, uw_u64 addr, unsigned size,
                   uw_u64 *v);

#endif
