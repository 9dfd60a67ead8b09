/* Internal: the DWARF expression evaluator, restricted to what CFI uses
 * (no DW_OP_call*, no TLS, no piece). */
#ifndef UW_EXPR_H
#define UW_EXPR_H

#include "unwind.h"

#define UW_EXPR_STACK 16   /* DWARF stack depth */
#define UW_EXPR_MAX_OPS 512 /* bounds loops built from DW_OP_skip/bra */

/* Evaluates len bytes of expression against regs and mem. If push is set,
 * initial is pushed first (the CFA, for DW_CFA_expression and
 * DW_CFA_val_expression). Returns 0 with *result, or a negative UW_E*. */
int uw_expr_eval(const uw_u8 *expr, uw_u32 len, const struct uw_regs *regs,
                 const struct uw_memory *mem, int push, uw_u64 initial,
                 uw_u64 *result);

#endif
