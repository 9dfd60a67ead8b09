/* One unwind step: find the FDE for pc, run its CFA program, apply the
 * row's rules to compute the caller's registers. A rule that needs an
 * unknown register or unreadable memory makes that caller register unknown;
 * if that register is the CFA or the return address the walk stops. */
#include "uw_arch.h"
#include "uw_expr.h"
#include "uw_table.h"

struct step_ctx {
  const struct uw_regs *in;
  const struct uw_memory *mem;
  const struct uw_cfi_section *s;
  unsigned addr_size;
  uw_u64 mask;
  uw_u64 cfa;
};

static int read_word(const struct step_ctx *x, uw_u64 addr, uw_u64 *v) {
  uw_u8 buf[8];
  unsigned i;
  if (x->mem->read(x->mem->ctx, addr & x->mask, buf, x->addr_size))
    return UW_EREAD;
  *v = 0;
  for (i = 0; i < x->addr_size; i++)
    *v |= (uw_u64)buf[i] << (8 * i);
  return 0;
}

static int eval(const struct step_ctx *x, const struct uw_rule *rule,
                int push_cfa, uw_u64 *v) {
  if ((uw_u64)(uw_u32)rule->value + rule->len > x->s->len)
    return UW_EBADCFI;
  return uw_expr_eval(x->s->data + rule->value, rule->len, x->in, x->mem,
                      push_cfa, x->cfa, v);
}

static int compute_cfa(struct step_ctx *x, const struct uw_row *row) {
  uw_u64 v;
  int rc;
  if (row->cfa.kind == UW_CFA_EXPR) {
    if ((rc = eval(x, &row->cfa, 0, &v)))
      return rc;
  } else {
    if (!uw_reg_valid(x->in, row->cfa.reg))
      return UW_EUNDEF;
    v = x->in->val[row->cfa.reg] + (uw_u64)(uw_s64)row->cfa.value;
  }
  x->cfa = v & x->mask;
  return 0;
}

/* The caller's value of register n under rule. Returns 0 with *v, 1 when
 * the value is unknown (undefined rule or clobbered), or a negative error
 * (which also means unknown, but tells why). */
static int apply_rule(const struct step_ctx *x, unsigned n,
                      const struct uw_rule *rule, uw_u64 *v) {
  uw_u64 addr;
  int rc;
  switch (rule->kind) {
  case UW_RULE_DEFAULT:
    if (n == uw_sp_reg(x->in->arch)) {
      *v = x->cfa; /* on x86 the caller's stack pointer is the CFA */
      return 0;
    }
    if (!(uw_callee_saved(x->in->arch) >> n & 1u))
      return 1;
    if (!uw_reg_valid(x->in, n)) /* preserved registers keep their value */
      return 1;
    *v = x->in->val[n];
    return 0;
  case UW_RULE_SAME:
    if (!uw_reg_valid(x->in, n))
      return 1;
    *v = x->in->val[n];
    return 0;
  case UW_RULE_UNDEF:
    return 1;
  case UW_RULE_OFFSET:
    return read_word(x, x->cfa + (uw_u64)(uw_s64)rule->value, v);
  case UW_RULE_VAL_OFFSET:
    *v = x->cfa + (uw_u64)(uw_s64)rule->value;
    return 0;
  case UW_RULE_REGISTER:
    if (!uw_reg_valid(x->in, rule->reg))
      return UW_EUNDEF;
    *v = x->in->val[rule->reg];
    return 0;
  case UW_RULE_EXPR:
    if ((rc = eval(x, rule, 1, &addr)))
      return rc;
    return read_word(x, addr, v);
  case UW_RULE_VAL_EXPR:
    return eval(x, rule, 1, v);
  default:
    return UW_EBADCFI;
  }
}

static int step_with_cfi(const struct uw_cfi_section *s,
                         const struct uw_fde *fde, uw_u64 rel_pc,
                         struct uw_regs *r, const struct uw_memory *mem) {
  struct uw_row row;
  struct uw_regs out;
  struct step_ctx x;
  unsigned n, ra = fde->cie.ra_reg, pc = uw_pc_reg(r->arch);
  uw_u64 v;
  int rc;
  if ((rc = uw_cfi_run(s, fde, rel_pc, &row)))
    return rc;
  x.in = r;
  x.mem = mem;
  x.s = s;
  x.addr_size = uw_addr_size(r->arch);
  x.mask = x.addr_size == 4 ? 0xffffffffu : ~(uw_u64)0;
  x.cfa = 0;
  if ((rc = compute_cfa(&x, &row)))
    return rc;
  if (row.reg[ra].kind == UW_RULE_UNDEF)
    return UW_END; /* the ABI's way of marking the outermost frame */
  out.arch = r->arch;
  out.flags = fde->cie.signal_frame ? UW_PC_EXACT : 0;
  out.valid = 0;
  for (n = 0; n < UW_NREGS; n++) {
    out.val[n] = 0;
    if (!(uw_all_regs(r->arch) >> n & 1u) || n == pc)
      continue;
    rc = apply_rule(&x, n, &row.reg[n], &v);
    if (rc == 0) {
      out.val[n] = v & x.mask;
      out.valid |= 1u << n;
    }
  }
  /* the return address column becomes the caller's pc */
  rc = apply_rule(&x, ra, &row.reg[ra], &v);
  if (rc)
    return rc < 0 ? rc : UW_EUNDEF;
  out.val[pc] = v & x.mask;
  out.valid |= 1u << pc;
  if (out.val[pc] == 0)
    return UW_END; /* a zero return address also ends the chain */
  if (out.val[pc] == r->val[pc] &&
      out.val[uw_sp_reg(r->arch)] == r->val[uw_sp_reg(r->arch)])
    return UW_ENOPROGRESS;
  *r = out;
  return UW_OK;
}

int uw_step(const struct uw_object *obj, struct uw_regs *r,
            const struct uw_memory *mem) {
  struct uw_cfi_section s;
  struct uw_fde fde;
  uw_u64 pc, lookup;
  int rc = UW_ENOCFI;
  if (r->arch != UW_ARCH_X86_64 && r->arch != UW_ARCH_I386)
    return UW_EBADCFI;
  if (!uw_reg_valid(r, uw_pc_reg(r->arch)))
    return UW_EUNDEF;
  pc = uw_pc(r);
  /* A return address points after the call, possibly past the end of the
   * caller's function (a noreturn call): look up the call instruction. */
  lookup = (r->flags & UW_PC_EXACT) ? pc : pc - 1;
  if (obj && obj->table) {
    if (obj->table->arch != r->arch)
      return UW_EBADTABLE;
    rc = uw_table_find_fde(obj->table, lookup - obj->bias, &s, &fde);
    if (rc == 0)
      return step_with_cfi(&s, &fde, lookup - obj->bias, r, mem);
  }
  if (rc == UW_ENOCFI) {
    int sig = uw_sigtramp_step(r, mem);
    if (sig != UW_ENOCFI)
      return sig;
  }
  return rc;
}
