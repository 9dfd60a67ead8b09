/* DWARF expression evaluation for CFI; see uw_expr.h. Arithmetic is done in
 * 64 bits and truncated to the target's address size on every push, as a
 * 32-bit machine would compute it. */
#include "uw_expr.h"
#include "uw_arch.h"
#include "uw_read.h"

static int push(struct uw_expr_machine *m, uw_u64 v) {
  if (m->sp >= UW_EXPR_STACK)
    return UW_ELIMIT;
  m->stack[m->sp++] = v & m->mask;
  return 0;
}

static int pop(struct uw_expr_machine *m, uw_u64 *v) {
  if (m->sp == 0)
    return UW_EBADCFI;
  *v = m->stack[--m->sp];
  return 0;
}

/* Sign extension of a value of the address size. */
static uw_s64 sval(const struct uw_expr_machine *m, uw_u64 v) {
  if (m->addr_size == 4)
    return (uw_s64)(uw_s32)(uw_u32)v;
  return (uw_s64)v;
}

static int read_reg(const struct uw_regs *regs, uw_u64 n, uw_u64 *v) {
  if (n >= UW_NREGS || !uw_reg_valid(regs, (unsigned)n))
    return UW_EUNDEF;
  *v = regs->val[n];
  return 0;
}

int uw_mem_read_le(const struct uw_memory *mem, uw_u64 addr, unsigned size,
                   uw_u64 *v) {
  uw_u64 word = 0; /* read in place: no byte buffer to assemble */
  if (mem->read(mem->ctx, addr, &word, size))
    return UW_EREAD;
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
  *v = word;
#else
  {
    const uw_u8 *b = (const uw_u8 *)&word;
    unsigned i;
    *v = 0;
    for (i = 0; i < size; i++)
      *v |= (uw_u64)b[i] << (8 * i);
  }
#endif
  return 0;
}

static int deref(const struct uw_expr_machine *m, uw_u64 addr, unsigned size,
                 uw_u64 *v) {
  if (size == 0 || size > 8)
    return UW_EBADCFI;
  return uw_mem_read_le(m->mem, addr, size, v);
}

/* Binary operators 0x1a..0x2e except the unary and control ones. */
/* A fixed-size operand, out of line: the evaluator is rarely hot, and
 * inlining every size into it would grow its frame on the step's path. */
static UW_NOINLINE uw_u64 operand(struct uw_cursor *c, unsigned n) {
  return uw_get_le(c, n);
}

static int binary(struct uw_expr_machine *m, uw_u8 op) {
  uw_u64 a, b, r;
  int rc;
  if ((rc = pop(m, &b)) || (rc = pop(m, &a)))
    return rc;
  switch (op) {
  case 0x1a: r = a & b; break;                                /* and */
  case 0x1b:                                                  /* div */
    if (b == 0 || (sval(m, b) == -1 && sval(m, a) < -0x7fffffffffffffffLL))
      return UW_EBADCFI;
    r = (uw_u64)uw_sdiv64(sval(m, a), sval(m, b));
    break;
  case 0x1c: r = a - b; break;                                /* minus */
  case 0x1d: if (b == 0) return UW_EBADCFI; r = uw_umod64(a, b); break; /* mod */
  case 0x1e: r = a * b; break;                                /* mul */
  case 0x21: r = a | b; break;                                /* or */
  case 0x22: r = a + b; break;                                /* plus */
  case 0x24: r = b >= 64 ? 0 : a << b; break;                 /* shl */
  case 0x25: r = b >= 64 ? 0 : a >> b; break;                 /* shr */
  case 0x26:                                                  /* shra */
    r = b >= 63 ? (sval(m, a) < 0 ? ~(uw_u64)0 : 0)
                : (uw_u64)(sval(m, a) >> b);
    break;
  case 0x27: r = a ^ b; break;                                /* xor */
  case 0x29: r = a == b; break;                               /* eq */
  case 0x2a: r = sval(m, a) >= sval(m, b); break;             /* ge */
  case 0x2b: r = sval(m, a) > sval(m, b); break;              /* gt */
  case 0x2c: r = sval(m, a) <= sval(m, b); break;             /* le */
  case 0x2d: r = sval(m, a) < sval(m, b); break;              /* lt */
  case 0x2e: r = a != b; break;                               /* ne */
  default: return UW_EBADCFI;
  }
  return push(m, r);
}

static int step(struct uw_expr_machine *m, struct uw_cursor *c, uw_u8 op) {
  const struct uw_regs *regs = m->regs;
  uw_u64 a, b, v;
  int rc;
  if (op >= 0x30 && op <= 0x4f) /* lit0..lit31 */
    return push(m, op - 0x30u);
  if (op >= 0x50 && op <= 0x6f) /* reg0..reg31: a location, not a value */
    return UW_EBADCFI;
  if (op >= 0x70 && op <= 0x8f) { /* breg0..breg31 */
    uw_s64 off = uw_get_sleb(c);
    if ((rc = read_reg(regs, op - 0x70u, &v)))
      return rc;
    return push(m, v + (uw_u64)off);
  }
  switch (op) {
  case 0x03: return push(m, operand(c, m->addr_size)); /* addr */
  case 0x06: /* deref */
    if ((rc = pop(m, &a)) || (rc = deref(m, a, m->addr_size, &v)))
      return rc;
    return push(m, v);
  case 0x94: { /* deref_size */
    uw_u8 size = (uw_u8)operand(c, 1);
    if (size > m->addr_size)
      return UW_EBADCFI;
    if ((rc = pop(m, &a)) || (rc = deref(m, a, size, &v)))
      return rc;
    return push(m, v);
  }
  case 0x08: return push(m, (uw_u8)operand(c, 1));
  case 0x09: return push(m, (uw_u64)(uw_s64)(uw_s8)(uw_u8)operand(c, 1));
  case 0x0a: return push(m, operand(c, 2));
  case 0x0b: return push(m, (uw_u64)(uw_s64)(uw_s16)operand(c, 2));
  case 0x0c: return push(m, operand(c, 4));
  case 0x0d: return push(m, (uw_u64)(uw_s64)(uw_s32)operand(c, 4));
  case 0x0e: case 0x0f: return push(m, operand(c, 8));
  case 0x10: return push(m, uw_get_uleb(c));
  case 0x11: return push(m, (uw_u64)uw_get_sleb(c));
  case 0x12: /* dup */
    if (m->sp == 0) return UW_EBADCFI;
    return push(m, m->stack[m->sp - 1]);
  case 0x13: return pop(m, &a); /* drop */
  case 0x14: /* over */
    if (m->sp < 2) return UW_EBADCFI;
    return push(m, m->stack[m->sp - 2]);
  case 0x15: { /* pick */
    uw_u8 i = (uw_u8)operand(c, 1);
    if (i >= m->sp) return UW_EBADCFI;
    return push(m, m->stack[m->sp - 1 - i]);
  }
  case 0x16: /* swap */
    if (m->sp < 2) return UW_EBADCFI;
    a = m->stack[m->sp - 1];
    m->stack[m->sp - 1] = m->stack[m->sp - 2];
    m->stack[m->sp - 2] = a;
    return 0;
  case 0x17: /* rot: top three, top moves to third */
    if (m->sp < 3) return UW_EBADCFI;
    a = m->stack[m->sp - 1];
    m->stack[m->sp - 1] = m->stack[m->sp - 2];
    m->stack[m->sp - 2] = m->stack[m->sp - 3];
    m->stack[m->sp - 3] = a;
    return 0;
  case 0x19: /* abs */
    if ((rc = pop(m, &a))) return rc;
    return push(m, sval(m, a) < 0 ? 0 - a : a);
  case 0x1f: /* neg */
    if ((rc = pop(m, &a))) return rc;
    return push(m, 0 - a);
  case 0x20: /* not */
    if ((rc = pop(m, &a))) return rc;
    return push(m, ~a);
  case 0x23: /* plus_uconst */
    b = uw_get_uleb(c);
    if ((rc = pop(m, &a))) return rc;
    return push(m, a + b);
  case 0x90: { /* regx */
    (void)uw_get_uleb(c);
    return UW_EBADCFI;
  }
  case 0x92: { /* bregx */
    uw_u64 reg = uw_get_uleb(c);
    uw_s64 off = uw_get_sleb(c);
    if ((rc = read_reg(regs, reg, &v)))
      return rc;
    return push(m, v + (uw_u64)off);
  }
  case 0x96: return 0; /* nop */
  default:
    if ((op >= 0x1a && op <= 0x2e))
      return binary(m, op);
    return UW_EBADCFI; /* calls, TLS, pieces, vendor ops */
  }
}

int uw_expr_eval(struct uw_expr_machine *m, const uw_u8 *expr, uw_u32 len,
                 const uw_u64 *initial, uw_u64 *result) {
  struct uw_cursor *c = &m->c; /* in the workspace, off the stack */
  unsigned ops = 0;
  int rc;
  m->sp = 0;
  m->addr_size = uw_arch_addr_size(m->regs->arch);
  m->mask = m->addr_size == 4 ? 0xffffffffu : ~(uw_u64)0;
  uw_cursor_init(c, expr, len, 0);
  if (initial && (rc = push(m, *initial)))
    return rc;
  while (c->p < c->end) {
    uw_u8 op = (uw_u8)operand(c, 1);
    if (++ops > UW_EXPR_MAX_OPS)
      return UW_ELIMIT;
    if (op == 0x2f || op == 0x28) { /* skip, bra */
      uw_s16 delta = (uw_s16)uw_get_u16(c);
      uw_u64 cond = 1;
      if (op == 0x28 && (rc = pop(m, &cond)))
        return rc;
      if (c->err)
        return UW_EBADCFI;
      if (cond) {
        if (delta < 0 ? (uw_u64)(-(uw_s32)delta) > (uw_u64)(c->p - c->start)
                      : (uw_u64)delta > (uw_u64)(c->end - c->p))
          return UW_EBADCFI;
        c->p += delta;
      }
      continue;
    }
    rc = step(m, c, op);
    if (rc)
      return rc;
    if (c->err)
      return UW_EBADCFI;
  }
  if (c->err)
    return UW_EBADCFI;
  return pop(m, result);
}
