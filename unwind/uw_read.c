/* Bounded readers; see uw_read.h. */
#include "uw_read.h"

uw_u64 uw_get_addr(struct uw_cursor *c, unsigned addr_size) {
  return uw_get_le(c, addr_size == 4 ? 4 : 8);
}

/* LEB128 is bounded to 10 bytes (64 bits); longer encodings are errors.
 * (uw_read.h reads one-byte values inline and calls these for the rest.) */
uw_u64 uw_get_uleb_slow(struct uw_cursor *c) {
  uw_u64 v = 0;
  unsigned shift = 0;
  for (;;) {
    uw_u8 b = uw_get_u8(c);
    if (c->err)
      return 0;
    if (shift < 64)
      v |= (uw_u64)(b & 0x7f) << shift;
    shift += 7;
    if (!(b & 0x80))
      return v;
    if (shift >= 70) {
      c->err = 1;
      return 0;
    }
  }
}

uw_s64 uw_get_sleb_slow(struct uw_cursor *c) {
  uw_u64 v = 0;
  unsigned shift = 0;
  uw_u8 b;
  do {
    b = uw_get_u8(c);
    if (c->err)
      return 0;
    if (shift < 64)
      v |= (uw_u64)(b & 0x7f) << shift;
    shift += 7;
    if ((b & 0x80) && shift >= 70) {
      c->err = 1;
      return 0;
    }
  } while (b & 0x80);
  if (shift < 64 && (b & 0x40))
    v |= ~(uw_u64)0 << shift;
  return (uw_s64)v;
}

void uw_skip(struct uw_cursor *c, uw_u64 n) {
  if (c->err || (uw_u64)(c->end - c->p) < n) {
    c->err = 1;
    return;
  }
  c->p += n;
}

unsigned uw_encoded_size(uw_u8 enc, unsigned addr_size) {
  switch (enc & 0x0f) {
  case 0x00: return addr_size;
  case 0x02: case 0x0a: return 2;
  case 0x03: case 0x0b: return 4;
  case 0x04: case 0x0c: return 8;
  default: return 0;
  }
}

int uw_get_encoded(struct uw_cursor *c, uw_u8 enc, unsigned addr_size,
                   const struct uw_ptr_bases *b, uw_u64 *out) {
  const uw_u8 *at = c->p; /* for pc-relative values (a pointer is smaller
                             than the 64-bit address on i386's stack) */
  uw_u64 v;
  if (enc == UW_PE_OMIT) {
    *out = 0;
    return 0;
  }
  switch (enc & 0x0f) {
  case 0x00: v = uw_get_addr(c, addr_size); break;
  case 0x01: v = uw_get_uleb(c); break;
  case 0x02: v = uw_get_u16(c); break;
  case 0x03: v = uw_get_u32(c); break;
  case 0x04: v = uw_get_u64(c); break;
  case 0x09: v = (uw_u64)uw_get_sleb(c); break;
  case 0x0a: v = (uw_u64)(uw_s64)(uw_s16)uw_get_u16(c); break;
  case 0x0b: v = (uw_u64)(uw_s64)(uw_s32)uw_get_u32(c); break;
  case 0x0c: v = uw_get_u64(c); break;
  default: return -1;
  }
  if (c->err)
    return -1;
  switch (enc & 0x70) {
  case 0x00: break;
  case 0x10: v += c->vaddr + (uw_u64)(at - c->start); break;
  case 0x30: v += b ? b->datarel : 0; break;
  case 0x40: v += b ? b->funcrel : 0; break;
  default: return -1; /* textrel, aligned: never emitted on x86 */
  }
  if (addr_size == 4)
    v &= 0xffffffffu;
  *out = v;
  return 0;
}
