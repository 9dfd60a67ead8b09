/* One unwind step: find the FDE for pc, run its CFA program, apply the
 * row's rules to compute the caller's registers. A rule that needs an
 * unknown register or unreadable memory makes that caller register unknown;
 * if that register is the CFA or the return address the walk stops.
 * Everything bigger than a few words lives in the workspace (uw_ws.h): the
 * functions here pass ws around instead of keeping state on the stack. */
#include "uw_arch.h"
#include "uw_table.h"
#include "uw_ws.h"

static int read_word(const struct uw_ws *ws, uw_u64 addr, uw_u64 *v) {
  return uw_mem_read_le(ws->expr.mem, addr & ws->mask, ws->expr.addr_size, v);
}

static int eval(struct uw_ws *ws, const struct uw_rule *rule, int push_cfa,
                uw_u64 *v) {
  if ((uw_u64)(uw_u32)rule->value + rule->len > ws->s.len)
    return UW_EBADCFI;
  return uw_expr_eval(&ws->expr, ws->s.data + rule->value, rule->len,
                      push_cfa ? &ws->cfa : 0, v);
}

static int compute_cfa(struct uw_ws *ws) {
  const struct uw_rule *cfa = &ws->prog.row.cfa;
  const struct uw_regs *in = ws->expr.regs;
  uw_u64 v;
  int rc;
  if (cfa->kind == UW_CFA_EXPR) {
    if ((rc = eval(ws, cfa, 0, &v)))
      return rc;
  } else {
    if (!uw_reg_valid(in, cfa->reg))
      return UW_EUNDEF;
    v = in->val[cfa->reg] + (uw_u64)(uw_s64)cfa->value;
  }
  ws->cfa = v & ws->mask;
  return 0;
}

/* Whether the caller's register n is computed (the pc is the return
 * address column's value instead). */
static int wanted(const struct uw_ws *ws, unsigned n) {
  uw_u8 arch = ws->expr.regs->arch;
  return n == ws->fde.cie.ra_reg ||
         ((uw_all_regs(arch) >> n & 1u) && n != uw_arch_pc(arch));
}

/* Sets up the rules' context and evaluates the CFA and every expression
 * rule, keeping the results in ws. Expressions are evaluated here, called
 * from the step itself, so that the evaluator's frame never sits on top of
 * the rule loop's (apply_rules). Returns 0 or the CFA's error. */
static UW_NOINLINE int eval_cfa_and_expressions(struct uw_ws *ws,
                                                const struct uw_regs *r,
                                                const struct uw_memory *mem) {
  unsigned n;
  int rc;
  ws->expr.regs = r;
  ws->expr.mem = mem;
  ws->expr.addr_size = uw_arch_addr_size(r->arch);
  ws->mask = ws->expr.addr_size == 4 ? 0xffffffffu : ~(uw_u64)0;
  ws->cfa = 0;
  if ((rc = compute_cfa(ws)))
    return rc;
  if (ws->prog.row.reg[ws->fde.cie.ra_reg].kind == UW_RULE_UNDEF)
    return UW_END; /* the ABI's way of marking the outermost frame */
  for (n = 0; ws->prog.has_expr && n < UW_NREGS; n++) {
    const struct uw_rule *rule = &ws->prog.row.reg[n];
    if ((rule->kind == UW_RULE_EXPR || rule->kind == UW_RULE_VAL_EXPR) &&
        wanted(ws, n))
      ws->expr_rc[n] = (uw_s8)eval(ws, rule, 1, &ws->expr_val[n]);
  }
  return 0;
}

/* The caller's value of register n under its rule. Returns 0 with *v, 1
 * when the value is unknown (undefined rule or clobbered), or a negative
 * error (which also means unknown, but tells why). */
static UW_ALWAYS_INLINE int apply_rule(struct uw_ws *ws, unsigned n,
                                       uw_u64 *v) {
  const struct uw_rule *rule = &ws->prog.row.reg[n];
  const struct uw_regs *in = ws->expr.regs;
  int rc;
  switch (rule->kind) {
  case UW_RULE_DEFAULT:
    if (n == uw_arch_sp(in->arch)) {
      *v = ws->cfa; /* on x86 the caller's stack pointer is the CFA */
      return 0;
    }
    if (!(uw_callee_saved(in->arch) >> n & 1u))
      return 1;
    if (!uw_reg_valid(in, n)) /* preserved registers keep their value */
      return 1;
    *v = in->val[n];
    return 0;
  case UW_RULE_SAME:
    if (!uw_reg_valid(in, n))
      return 1;
    *v = in->val[n];
    return 0;
  case UW_RULE_UNDEF:
    return 1;
  case UW_RULE_OFFSET:
    return read_word(ws, ws->cfa + (uw_u64)(uw_s64)rule->value, v);
  case UW_RULE_VAL_OFFSET:
    *v = ws->cfa + (uw_u64)(uw_s64)rule->value;
    return 0;
  case UW_RULE_REGISTER:
    if (!uw_reg_valid(in, rule->reg))
      return UW_EUNDEF;
    *v = in->val[rule->reg];
    return 0;
  case UW_RULE_EXPR: /* evaluated by eval_cfa_and_expressions */
    if ((rc = ws->expr_rc[n]))
      return rc;
    return read_word(ws, ws->expr_val[n], v);
  case UW_RULE_VAL_EXPR:
    *v = ws->expr_val[n];
    return ws->expr_rc[n];
  default:
    return UW_EBADCFI;
  }
}

/* Applies the rules in ws->prog.row to r, building the caller in ws->out;
 * copies it to r only on success. */
static UW_NOINLINE int apply_rules(struct uw_ws *ws, struct uw_regs *r) {
  struct uw_regs *out = &ws->out;
  /* Locals, not re-read: out may alias r as far as the compiler knows. */
  const uw_u8 arch = r->arch;
  const unsigned ra = ws->fde.cie.ra_reg, pc = uw_arch_pc(arch);
  const unsigned sp = uw_arch_sp(arch);
  const uw_u32 regs = uw_all_regs(arch) & ~(1u << pc);
  const uw_u32 kept = uw_callee_saved(arch) & r->valid;
  const uw_u64 mask = ws->mask;
  uw_u32 valid = 0;
  unsigned n;
  uw_u64 v;
  int rc;
  for (n = 0; n < UW_NREGS; n++) {
    out->val[n] = 0;
    if (!(regs >> n & 1u))
      continue;
    /* most registers have no rule: the quick answer, as apply_rule's */
    if (ws->prog.row.reg[n].kind == UW_RULE_DEFAULT) {
      if (n == sp)
        v = ws->cfa;
      else if (kept >> n & 1u)
        v = r->val[n];
      else
        continue;
    } else if (apply_rule(ws, n, &v)) {
      continue;
    }
    out->val[n] = v & mask;
    valid |= 1u << n;
  }
  /* the return address column becomes the caller's pc */
  rc = apply_rule(ws, ra, &v);
  if (rc)
    return rc < 0 ? rc : UW_EUNDEF;
  out->val[pc] = v & mask;
  out->valid = valid | 1u << pc;
  out->arch = arch;
  out->flags = ws->fde.cie.signal_frame ? UW_PC_EXACT : 0;
  if (out->val[pc] == 0)
    return UW_END; /* a zero return address also ends the chain */
  if (out->val[pc] == r->val[pc] && out->val[sp] == r->val[sp])
    return UW_ENOPROGRESS;
  *r = *out;
  return UW_OK;
}

void uw_workspace_init(struct uw_workspace *w) {
  struct uw_ws *ws = uw_ws_of(w);
  unsigned i;
  uw_cie_cache_clear(&ws->cies); /* the tables may be new */
  for (i = 0; i < UW_ROW_CACHE; i++)
    ws->rows[i].table = 0;
}

/* The row cache's slot for (t, pc): pcs of one object differ in their low
 * bits, the multiplier spreads them over the slots. */
static UW_ALWAYS_INLINE struct uw_row_slot *
row_slot(struct uw_ws *ws, uw_u64 pc) {
  uw_u32 h = (uw_u32)pc * 0x9e3779b1u;
  return &ws->rows[h >> 27 & (UW_ROW_CACHE - 1)];
}

/* A hit puts the row and what the rules need of its FDE (the section,
 * the return address column, the signal flag) where a lookup and a CFA
 * program run would have left them. The pc is ws->lookup (not an
 * argument: on i386 a 64-bit one costs the step's frame two more words). */
static UW_NOINLINE int row_cached(struct uw_ws *ws, const struct uw_table *t) {
  const struct uw_row_slot *e = row_slot(ws, ws->lookup);
  if (e->table != t || e->pc != ws->lookup)
    return 0;
  uw_table_section(t, e->debug_frame, &ws->s);
  ws->fde.cie.ra_reg = e->ra_reg;
  ws->fde.cie.signal_frame = e->signal_frame;
  ws->prog.row = e->row;
  ws->prog.has_expr = e->has_expr;
  return 1;
}

static UW_NOINLINE void row_keep(struct uw_ws *ws, const struct uw_table *t) {
  struct uw_row_slot *e = row_slot(ws, ws->lookup);
  e->table = t;
  e->pc = ws->lookup;
  e->row = ws->prog.row;
  e->ra_reg = ws->fde.cie.ra_reg;
  e->debug_frame = !ws->s.is_eh;
  e->signal_frame = ws->fde.cie.signal_frame;
  e->has_expr = ws->prog.has_expr;
}

int uw_step_ws(const struct uw_object *obj, struct uw_regs *r,
               const struct uw_memory *mem, struct uw_workspace *w) {
  struct uw_ws *ws = uw_ws_of(w);
  uw_u64 pc, lookup;
  int rc = UW_ENOCFI;
  if (r->arch != UW_ARCH_X86_64 && r->arch != UW_ARCH_I386)
    return UW_EBADCFI;
  if (!uw_reg_valid(r, uw_arch_pc(r->arch)))
    return UW_EUNDEF;
  pc = r->val[uw_arch_pc(r->arch)];
  /* A return address points after the call, possibly past the end of the
   * caller's function (a noreturn call): look up the call instruction. */
  lookup = (r->flags & UW_PC_EXACT) ? pc : pc - 1;
  if (obj && obj->table) {
    if (obj->table->arch != r->arch)
      return UW_EBADTABLE;
    ws->lookup = lookup - obj->bias;
    if (row_cached(ws, obj->table)) {
      rc = 0;
    } else {
      rc = uw_table_find_fde(obj->table, ws->lookup, &ws->s, &ws->fde,
                             &ws->parse, &ws->cies);
      /* the rules in effect at lookup */
      if (rc == 0 &&
          (rc = uw_cfi_run_in(&ws->prog, &ws->s, &ws->fde, ws->lookup)))
        return rc;
      if (rc == 0)
        row_keep(ws, obj->table);
    }
    if (rc == 0) {
      /* the caller's registers */
      if ((rc = eval_cfa_and_expressions(ws, r, mem)))
        return rc;
      return apply_rules(ws, r);
    }
  }
  if (rc == UW_ENOCFI) {
    int sig = uw_sigtramp_step(r, mem, &ws->out);
    if (sig != UW_ENOCFI)
      return sig;
  }
  return rc;
}
