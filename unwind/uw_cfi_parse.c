/* CIE and FDE parsing for .eh_frame and .debug_frame. Every field is read
 * through a cursor bounded by its record, so hostile sections fail cleanly. */
#include "uw_cfi.h"

/* Opens a cursor on the record at off: sets *body to its contents (after
 * the length field), reports whether lengths are 64-bit, and the record end.
 * The parser works on one cursor at a time (the step's stack is small). */
static int open_record(const struct uw_cfi_section *s, uw_u32 off,
                       struct uw_cursor *body, int *is64, uw_u32 *next) {
  uw_u64 len;
  uw_u64 start;
  if (off >= s->len)
    return UW_EBADCFI;
  uw_cursor_init(body, s->data, s->len, s->vaddr);
  body->p += off;
  len = uw_get_u32(body);
  *is64 = 0;
  if (len == 0xffffffffu) {
    len = uw_get_u64(body);
    *is64 = 1;
  }
  if (body->err)
    return UW_EBADCFI;
  start = (uw_u64)(body->p - s->data);
  if (len > (uw_u64)s->len - start)
    return UW_EBADCFI;
  body->end = body->p + len;
  *next = (uw_u32)(start + len);
  return 0;
}

/* Reads the CIE id / CIE pointer field; returns 1 if the record is a CIE,
 * 0 for an FDE (then *cie_off is where its CIE starts), -1 on error. */
static int read_id(const struct uw_cfi_section *s, struct uw_cursor *c,
                   int is64, uw_u32 *cie_off) {
  uw_u64 field_off = (uw_u64)(c->p - s->data);
  uw_u64 id = is64 ? uw_get_u64(c) : uw_get_u32(c);
  uw_u64 cie_id = s->is_eh ? 0 : (is64 ? ~(uw_u64)0 : 0xffffffffu);
  if (c->err)
    return -1;
  if (id == cie_id)
    return 1;
  if (s->is_eh) {
    /* .eh_frame: distance back from the id field to the CIE */
    if (id > field_off)
      return -1;
    *cie_off = (uw_u32)(field_off - id);
  } else {
    if (id >= s->len)
      return -1;
    *cie_off = (uw_u32)id;
  }
  return 0;
}

int uw_cfi_record(const struct uw_cfi_section *s, uw_u32 off, int *kind,
                  uw_u32 *next) {
  struct uw_cursor c;
  int is64, r;
  uw_u32 cie_off;
  if (off < s->len && s->len - off >= 4) {
    struct uw_cursor z;
    uw_cursor_init(&z, s->data, s->len, s->vaddr);
    z.p += off;
    if (uw_get_u32(&z) == 0) { /* zero length: end of section */
      *kind = UW_REC_TERMINATOR;
      *next = off + 4;
      return 0;
    }
  }
  if (open_record(s, off, &c, &is64, next))
    return UW_EBADCFI;
  r = read_id(s, &c, is64, &cie_off);
  if (r < 0)
    return UW_EBADCFI;
  *kind = r ? UW_REC_CIE : UW_REC_FDE;
  return 0;
}

/* Augmentation data of a 'z' CIE: L, P, R, S, B (others end the walk;
 * the data length tells where the instructions start). */
static int parse_z_augmentation(const struct uw_cfi_section *s,
                                struct uw_cursor *c, const uw_u8 *aug,
                                uw_u32 aug_len, struct uw_cie *cie) {
  uw_u64 data_len = uw_get_uleb(c);
  const uw_u8 *record_end = c->end;
  uw_u32 i;
  uw_u64 ignored;
  if (c->err || data_len > uw_left(c))
    return UW_EBADCFI;
  c->end = c->p + data_len; /* the letters' data, then back to the record */
  for (i = 1; i < aug_len; i++) {
    switch (aug[i]) {
    case 'L': cie->lsda_enc = uw_get_u8(c); break;
    case 'R': cie->fde_enc = uw_get_u8(c); break;
    case 'S': cie->signal_frame = 1; break;
    case 'B': break;
    case 'P': {
      uw_u8 enc = uw_get_u8(c);
      /* skip the personality pointer; its value is never used */
      if (uw_get_encoded(c, (uw_u8)(enc & 0x7f), s->addr_size, 0, &ignored))
        return UW_EBADCFI;
      break;
    }
    default:
      i = aug_len; /* unknown letter: the rest cannot be interpreted */
      continue;
    }
    if (c->err)
      return UW_EBADCFI;
  }
  c->p = c->end;
  c->end = record_end;
  return 0;
}

/* Parses the CIE at off into *cie, using the caller's cursor c. */
static int parse_cie(const struct uw_cfi_section *s, uw_u32 off,
                     struct uw_cursor *c, struct uw_cie *cie) {
  int is64;
  uw_u32 next, dummy, aug_len = 0;
  const uw_u8 *aug;
  uw_u8 version;
  if (open_record(s, off, c, &is64, &next) ||
      read_id(s, c, is64, &dummy) != 1)
    return UW_EBADCFI;
  version = uw_get_u8(c);
  if (version != 1 && version != 3 && version != 4)
    return UW_EBADCFI;
  aug = c->p;
  while (c->p < c->end && *c->p) {
    c->p++;
    aug_len++;
  }
  uw_skip(c, 1); /* the NUL */
  cie->addr_size = s->addr_size;
  if (version == 4) {
    uw_u8 asz = uw_get_u8(c);
    uw_u8 seg = uw_get_u8(c);
    if ((asz != 4 && asz != 8) || seg != 0)
      return UW_EBADCFI;
    cie->addr_size = asz;
  }
  cie->code_align = uw_get_uleb(c);
  cie->data_align = uw_get_sleb(c);
  cie->ra_reg = version == 1 ? uw_get_u8(c) : (uw_u32)uw_get_uleb(c);
  cie->fde_enc = 0; /* absptr */
  cie->lsda_enc = UW_PE_OMIT;
  cie->has_z = 0;
  cie->signal_frame = 0;
  if (c->err)
    return UW_EBADCFI;
  if (aug_len > 0 && aug[0] == 'z') {
    cie->has_z = 1;
    if (parse_z_augmentation(s, c, aug, aug_len, cie))
      return UW_EBADCFI;
  } else if (aug_len == 2 && aug[0] == 'e' && aug[1] == 'h') {
    uw_skip(c, cie->addr_size); /* old GCC "eh" data pointer */
  } else if (aug_len != 0) {
    return UW_EBADCFI;
  }
  if (c->err || c->p > c->end)
    return UW_EBADCFI;
  cie->insns = c->p;
  cie->insns_len = (uw_u32)(c->end - c->p);
  return 0;
}

int uw_cfi_parse_fde(const struct uw_cfi_section *s, uw_u32 off,
                     struct uw_fde *fde) {
  struct uw_cursor c;
  return uw_cfi_parse_fde_in(s, off, fde, &c, 0);
}

/* The cache slot of the CIE at cie_off of s, or null. */
static UW_NOINLINE struct uw_cie_slot *cached_cie(struct uw_cie_cache *cache,
                                      const struct uw_cfi_section *s,
                                      uw_u32 cie_off) {
  const uw_u8 *record = s->data + cie_off;
  unsigned i;
  for (i = 0; i < UW_CIE_CACHE; i++) {
    struct uw_cie_slot *slot = &cache->slot[i];
    if (slot->record == record && slot->is_eh == s->is_eh &&
        slot->addr_size == s->addr_size)
      return slot;
  }
  return 0;
}

/* Keeps a parsed CIE in the next slot (round robin), without its row. */
static UW_NOINLINE struct uw_cie_slot *cache_cie(struct uw_cie_cache *cache,
                                     const struct uw_cfi_section *s,
                                     uw_u32 cie_off, const struct uw_cie *cie) {
  struct uw_cie_slot *slot = &cache->slot[cache->next % UW_CIE_CACHE];
  cache->next = (cache->next + 1) % UW_CIE_CACHE;
  slot->record = s->data + cie_off;
  slot->is_eh = s->is_eh;
  slot->addr_size = s->addr_size;
  slot->cie = *cie;
  slot->has_initial = 0;
  return slot;
}

int uw_cfi_parse_fde_in(const struct uw_cfi_section *s, uw_u32 off,
                        struct uw_fde *fde, struct uw_cursor *cursor,
                        struct uw_cie_cache *cache) {
  struct uw_cursor *c = cursor;
  int is64;
  uw_u32 next, cie_off, fields;
  uw_u64 range;
  fde->slot = 0;
  if (open_record(s, off, c, &is64, &next) ||
      read_id(s, c, is64, &cie_off) != 0)
    return UW_EBADCFI;
  /* The FDE's fields need its CIE's encodings: parse the CIE with the same
   * cursor, then come back (the FDE record ends at next). */
  fields = (uw_u32)(c->p - s->data);
  if (cache && (fde->slot = cached_cie(cache, s, cie_off)) != 0) {
    fde->cie = fde->slot->cie;
  } else {
    if (parse_cie(s, cie_off, c, &fde->cie))
      return UW_EBADCFI;
    if (cache)
      fde->slot = cache_cie(cache, s, cie_off, &fde->cie);
  }
  c->p = s->data + fields;
  c->end = s->data + next;
  if (s->is_eh && fde->cie.fde_enc == 0x1b && uw_left(c) >= 8) {
    /* pcrel sdata4, what GCC and clang emit: decoded here, as
     * uw_get_encoded would, without the call */
    uw_u64 at = s->vaddr + fields;
    fde->pc_begin = at + (uw_u64)(uw_s64)(uw_s32)uw_get_u32(c);
    range = (uw_u64)(uw_s64)(uw_s32)uw_get_u32(c);
    if (fde->cie.addr_size == 4) {
      fde->pc_begin &= 0xffffffffu;
      range &= 0xffffffffu;
    }
  } else if (s->is_eh) {
    if (uw_get_encoded(c, fde->cie.fde_enc, fde->cie.addr_size, 0,
                       &fde->pc_begin) ||
        uw_get_encoded(c, (uw_u8)(fde->cie.fde_enc & 0x0f),
                       fde->cie.addr_size, 0, &range))
      return UW_EBADCFI;
  } else {
    fde->pc_begin = uw_get_addr(c, fde->cie.addr_size);
    range = uw_get_addr(c, fde->cie.addr_size);
  }
  if (fde->cie.has_z)
    uw_skip(c, uw_get_uleb(c));
  if (c->err)
    return UW_EBADCFI;
  fde->pc_end = fde->pc_begin + range;
  if (fde->pc_end < fde->pc_begin)
    return UW_EBADCFI;
  fde->insns = c->p;
  fde->insns_len = (uw_u32)(c->end - c->p);
  return 0;
}
