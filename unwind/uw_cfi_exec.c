/* The CFA program interpreter: runs a CIE's initial instructions, then the
 * FDE's, up to a target pc, and produces the row of register rules in effect
 * there. Bounded: at most UW_MAX_CFA_OPS instructions, UW_STATE_STACK levels
 * of remember_state. */
#include "uw_cfi.h"

static void row_reset(struct uw_row *row) {
  unsigned i;
  row->cfa.kind = UW_CFA_REG_OFFSET;
  row->cfa.reg = 0xff; /* no CFA rule yet */
  row->cfa.len = 0;
  row->cfa.value = 0;
  for (i = 0; i < UW_NREGS; i++) {
    row->reg[i].kind = UW_RULE_DEFAULT;
    row->reg[i].reg = 0;
    row->reg[i].len = 0;
    row->reg[i].value = 0;
  }
}

static void row_copy(struct uw_row *dst, const struct uw_row *src) {
  *dst = *src; /* struct assignment: compiles to an inline copy */
}

/* Multiplication by the data alignment wraps instead of overflowing (a
 * hostile operand must not be undefined behaviour); the result is then
 * range-checked. */
static uw_s64 factor(uw_u64 v, uw_s64 align) {
  return (uw_s64)(v * (uw_u64)align);
}

/* Factored offsets must fit the row's 32-bit field. */
static int fits_s32(uw_s64 v) { return v >= -0x7fffffffLL && v <= 0x7fffffffLL; }

static int set_rule(struct uw_cfa_machine *m, uw_u64 reg, uw_u8 kind,
                    uw_s64 value) {
  if (!fits_s32(value))
    return UW_EBADCFI;
  if (reg >= UW_NREGS)
    return 0; /* vector and other registers: not needed to unwind */
  m->row.reg[reg].kind = kind;
  m->row.reg[reg].value = (uw_s32)value;
  m->row.reg[reg].len = 0;
  return 0;
}

/* Reads a DW_FORM_block (uleb length + bytes) into an expression rule. */
static int set_expr(struct uw_cfa_machine *m, struct uw_cursor *c,
                    struct uw_rule *rule, uw_u8 kind) {
  uw_u64 len = uw_get_uleb(c);
  uw_u64 off = (uw_u64)(c->p - m->s->data);
  uw_skip(c, len);
  if (c->err || len > 0xffff || off > 0x7fffffff)
    return UW_EBADCFI;
  m->has_expr = 1;
  if (rule) {
    rule->kind = kind;
    rule->len = (uw_u16)len;
    rule->value = (uw_s32)off;
  }
  return 0;
}

/* Moves the location forward; returns 1 once the target pc is passed. */
static int advance(struct uw_cfa_machine *m, uw_u64 delta) {
  uw_u64 next = m->loc + delta * m->fde->cie.code_align;
  m->moved = 1;
  if (next > m->target || next < m->loc)
    return 1;
  m->loc = next;
  return 0;
}

/* Executes one program. Returns 0, 1 when the target was reached, or a
 * negative error. */
static int run(struct uw_cfa_machine *m, const uw_u8 *insns, uw_u32 len,
               int in_cie) {
  struct uw_cursor *c = &m->c; /* in the workspace, off the stack */
  const struct uw_cie *cie = &m->fde->cie;
  uw_cursor_init(c, m->s->data, m->s->len, m->s->vaddr);
  c->p = insns;
  c->end = insns + len;
  while (c->p < c->end) {
    uw_u8 op = uw_get_u8(c);
    uw_u8 low = op & 0x3f;
    uw_u64 reg;
    uw_s64 off;
    int rc = 0;
    if (++m->ops > UW_MAX_CFA_OPS)
      return UW_ELIMIT;
    switch (op & 0xc0) {
    case 0x40: /* DW_CFA_advance_loc */
      if (advance(m, low))
        return 1;
      continue;
    case 0x80: /* DW_CFA_offset */
      rc = set_rule(m, low, UW_RULE_OFFSET,
                    factor(uw_get_uleb(c), cie->data_align));
      break;
    case 0xc0: /* DW_CFA_restore */
      if (in_cie)
        return UW_EBADCFI;
      if (low < UW_NREGS)
        m->row.reg[low] = m->initial.reg[low];
      continue;
    default:
      switch (op) {
      case 0x00: /* nop */
        break;
      case 0x01: { /* set_loc */
        uw_u64 loc;
        struct uw_ptr_bases b = {0, m->fde->pc_begin};
        if (uw_get_encoded(c, m->s->is_eh ? cie->fde_enc : 0, cie->addr_size,
                           &b, &loc))
          return UW_EBADCFI;
        if (loc > m->target)
          return 1;
        if (loc < m->loc)
          return UW_EBADCFI; /* locations only move forward */
        m->loc = loc;
        m->moved = 1;
        break;
      }
      case 0x02: if (advance(m, uw_get_u8(c))) return 1; break;
      case 0x03: if (advance(m, uw_get_u16(c))) return 1; break;
      case 0x04: if (advance(m, uw_get_u32(c))) return 1; break;
      case 0x05: /* offset_extended */
        reg = uw_get_uleb(c);
        rc = set_rule(m, reg, UW_RULE_OFFSET,
                      factor(uw_get_uleb(c), cie->data_align));
        break;
      case 0x06: /* restore_extended */
        reg = uw_get_uleb(c);
        if (in_cie)
          return UW_EBADCFI;
        if (reg < UW_NREGS)
          m->row.reg[reg] = m->initial.reg[reg];
        break;
      case 0x07: rc = set_rule(m, uw_get_uleb(c), UW_RULE_UNDEF, 0); break;
      case 0x08: rc = set_rule(m, uw_get_uleb(c), UW_RULE_SAME, 0); break;
      case 0x09: { /* register */
        uw_u64 r2;
        reg = uw_get_uleb(c);
        r2 = uw_get_uleb(c);
        if (r2 >= UW_NREGS)
          rc = set_rule(m, reg, UW_RULE_UNDEF, 0);
        else if (!(rc = set_rule(m, reg, UW_RULE_REGISTER, 0)) &&
                 reg < UW_NREGS)
          m->row.reg[reg].reg = (uw_u8)r2;
        break;
      }
      case 0x0a: /* remember_state */
        if (m->depth >= UW_STATE_STACK)
          return UW_ELIMIT;
        row_copy(&m->stack[m->depth++], &m->row);
        break;
      case 0x0b: /* restore_state */
        if (m->depth == 0)
          return UW_EBADCFI;
        row_copy(&m->row, &m->stack[--m->depth]);
        break;
      case 0x0c: /* def_cfa */
        reg = uw_get_uleb(c);
        off = (uw_s64)uw_get_uleb(c);
        goto def_cfa;
      case 0x12: /* def_cfa_sf */
        reg = uw_get_uleb(c);
        off = factor((uw_u64)uw_get_sleb(c), cie->data_align);
      def_cfa:
        if (reg >= UW_NREGS || !fits_s32(off))
          return UW_EBADCFI;
        m->row.cfa.kind = UW_CFA_REG_OFFSET;
        m->row.cfa.reg = (uw_u8)reg;
        m->row.cfa.value = (uw_s32)off;
        break;
      case 0x0d: /* def_cfa_register */
        reg = uw_get_uleb(c);
        if (reg >= UW_NREGS || m->row.cfa.kind != UW_CFA_REG_OFFSET)
          return UW_EBADCFI;
        m->row.cfa.reg = (uw_u8)reg;
        break;
      case 0x0e: /* def_cfa_offset */
        off = (uw_s64)uw_get_uleb(c);
        goto cfa_offset;
      case 0x13: /* def_cfa_offset_sf */
        off = factor((uw_u64)uw_get_sleb(c), cie->data_align);
      cfa_offset:
        if (!fits_s32(off) || m->row.cfa.kind != UW_CFA_REG_OFFSET)
          return UW_EBADCFI;
        m->row.cfa.value = (uw_s32)off;
        break;
      case 0x0f: /* def_cfa_expression */
        rc = set_expr(m, c, &m->row.cfa, UW_CFA_EXPR);
        break;
      case 0x10: /* expression */
      case 0x16: /* val_expression */
        reg = uw_get_uleb(c);
        rc = set_expr(m, c, reg < UW_NREGS ? &m->row.reg[reg] : 0,
                      op == 0x10 ? UW_RULE_EXPR : UW_RULE_VAL_EXPR);
        break;
      case 0x11: /* offset_extended_sf */
        reg = uw_get_uleb(c);
        rc = set_rule(m, reg, UW_RULE_OFFSET, factor((uw_u64)uw_get_sleb(c), cie->data_align));
        break;
      case 0x14: /* val_offset */
        reg = uw_get_uleb(c);
        rc = set_rule(m, reg, UW_RULE_VAL_OFFSET,
                      factor(uw_get_uleb(c), cie->data_align));
        break;
      case 0x15: /* val_offset_sf */
        reg = uw_get_uleb(c);
        rc = set_rule(m, reg, UW_RULE_VAL_OFFSET,
                      factor((uw_u64)uw_get_sleb(c), cie->data_align));
        break;
      case 0x2e: /* GNU_args_size: only matters to landing pads */
        uw_get_uleb(c);
        break;
      case 0x2f: /* GNU_negative_offset_extended */
        reg = uw_get_uleb(c);
        rc = set_rule(m, reg, UW_RULE_OFFSET,
                      (uw_s64)(0 - (uw_u64)factor(uw_get_uleb(c), cie->data_align)));
        break;
      default:
        return UW_EBADCFI;
      }
    }
    if (rc)
      return rc;
    if (c->err)
      return UW_EBADCFI;
  }
  return c->err ? UW_EBADCFI : 0;
}

/* The row after the CIE's program: from the cache when it is there, else
 * computed (and cached when it does not depend on the FDE). Returns 0, 1
 * when the target pc was reached inside the CIE's program, or an error. */
static int run_cie(struct uw_cfa_machine *m, const struct uw_fde *fde) {
  struct uw_cie_slot *slot = fde->slot;
  int rc;
  if (slot && slot->has_initial) {
    row_copy(&m->row, &slot->initial);
    m->ops = slot->ops;
    m->has_expr = slot->has_expr;
    return 0;
  }
  row_reset(&m->row);
  rc = run(m, fde->cie.insns, fde->cie.insns_len, 1);
  if (rc == 0 && slot && !m->moved && m->depth == 0) {
    row_copy(&slot->initial, &m->row);
    slot->ops = (uw_u16)m->ops; /* <= UW_MAX_CFA_OPS */
    slot->has_expr = m->has_expr;
    slot->has_initial = 1;
  }
  return rc;
}

void uw_cie_cache_clear(struct uw_cie_cache *cache) {
  unsigned i;
  for (i = 0; i < UW_CIE_CACHE; i++)
    cache->slot[i].record = 0;
  cache->next = 0;
}

int uw_cfi_run_in(struct uw_cfa_machine *m, const struct uw_cfi_section *s,
                  const struct uw_fde *fde, uw_u64 pc) {
  int rc;
  m->s = s;
  m->fde = fde;
  m->depth = 0;
  m->loc = fde->pc_begin;
  m->target = pc;
  m->ops = 0;
  m->moved = 0;
  m->has_expr = 0;
  if (fde->cie.code_align == 0 || fde->cie.ra_reg >= UW_NREGS)
    return UW_EBADCFI;
  rc = run_cie(m, fde);
  if (rc < 0)
    return rc;
  row_copy(&m->initial, &m->row);
  if (rc == 0) {
    rc = run(m, fde->insns, fde->insns_len, 0);
    if (rc < 0)
      return rc;
  }
  if (m->row.cfa.kind == UW_CFA_REG_OFFSET && m->row.cfa.reg == 0xff)
    return UW_EBADCFI; /* no CFA rule at all */
  return 0;
}
