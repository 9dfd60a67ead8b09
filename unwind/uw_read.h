/* Bounded little-endian reader over a byte range: every read checks the end
 * and latches an error instead of running past it. Used for CFI, expressions
 * and tables, all of which may be hostile. */
#ifndef UW_READ_H
#define UW_READ_H

#include "uw_types.h"

struct uw_cursor {
  const uw_u8 *start; /* beginning of the section the cursor walks */
  const uw_u8 *p;
  const uw_u8 *end;
  uw_u64 vaddr;       /* link-time address of start (for pc-relative) */
  int err;            /* nonzero once a read went out of bounds */
};

/* Pointer encodings (DW_EH_PE_*) */
#define UW_PE_OMIT 0xff
#define UW_PE_INDIRECT 0x80

/* Bases for relative pointer encodings that are not pc-relative. */
struct uw_ptr_bases {
  uw_u64 datarel; /* .eh_frame_hdr start for the search table */
  uw_u64 funcrel; /* start of the current function */
};

/* Inline: a call would cost the step stack on i386. */
static inline void uw_cursor_init(struct uw_cursor *c, const uw_u8 *start,
                                  uw_u32 len, uw_u64 vaddr) {
  c->start = start;
  c->p = start;
  c->end = start ? start + len : start; /* NULL + 0 is undefined too */
  c->vaddr = vaddr;
  c->err = start == 0 && len != 0;
}
/* Little-endian load of n bytes (n <= 8, a constant where it is inlined):
 * the interpreters read a byte or a word per operand, so the bounds check
 * is inline and calls are kept for the rarer multi-byte LEB128 values. */
static inline uw_u64 uw_get_le(struct uw_cursor *c, unsigned n) {
  uw_u64 v = 0;
  unsigned i;
  if (c->err || (uw_u64)(c->end - c->p) < n) {
    c->err = 1;
    return 0;
  }
  for (i = 0; i < n; i++)
    v |= (uw_u64)c->p[i] << (8 * i);
  c->p += n;
  return v;
}
static inline uw_u8 uw_get_u8(struct uw_cursor *c) {
  return (uw_u8)uw_get_le(c, 1);
}
static inline uw_u16 uw_get_u16(struct uw_cursor *c) {
  return (uw_u16)uw_get_le(c, 2);
}
static inline uw_u32 uw_get_u32(struct uw_cursor *c) {
  return (uw_u32)uw_get_le(c, 4);
}
static inline uw_u64 uw_get_u64(struct uw_cursor *c) {
  return uw_get_le(c, 8);
}
uw_u64 uw_get_uleb_slow(struct uw_cursor *c);
uw_s64 uw_get_sleb_slow(struct uw_cursor *c);
static inline uw_u64 uw_get_uleb(struct uw_cursor *c) {
  if (!c->err && c->p < c->end && !(*c->p & 0x80))
    return *c->p++;
  return uw_get_uleb_slow(c);
}
static inline uw_s64 uw_get_sleb(struct uw_cursor *c) {
  if (!c->err && c->p < c->end && !(*c->p & 0x80)) {
    uw_u8 b = *c->p++;
    return (b & 0x40) ? (uw_s64)b - 0x80 : (uw_s64)b;
  }
  return uw_get_sleb_slow(c);
}
/* An address of addr_size (4 or 8) bytes. */
uw_u64 uw_get_addr(struct uw_cursor *c, unsigned addr_size);
void uw_skip(struct uw_cursor *c, uw_u64 n);
static inline uw_u64 uw_cursor_vaddr(const struct uw_cursor *c) {
  return c->vaddr + (uw_u64)(c->p - c->start);
}
static inline uw_u64 uw_left(const struct uw_cursor *c) {
  return c->err ? 0 : (uw_u64)(c->end - c->p);
}

/* Reads a pointer in encoding enc. Indirect pointers are not dereferenced
 * (the unwinder only reads them for personality routines, which it skips):
 * the result is then the address of the pointer and *indirect is set.
 * Returns 0, or -1 for an unsupported encoding or a bad read. */
int uw_get_encoded(struct uw_cursor *c, uw_u8 enc, unsigned addr_size,
                   const struct uw_ptr_bases *b, uw_u64 *out);
/* The byte size an encoding occupies, or 0 if it is variable/unknown. */
unsigned uw_encoded_size(uw_u8 enc, unsigned addr_size);

#endif
