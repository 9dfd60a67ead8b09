/* Packing of table blobs for modules; see uw_pack.h. */
#include "uw_pack.h"
#include "uw_table.h"

struct uw_pack_layout {
  uw_u32 fde_count, fde_off, eh_off, eh_len, sym_count, sym_off;
};

static void put32(uw_u8 *p, uw_u32 v) {
  p[0] = (uw_u8)v;
  p[1] = (uw_u8)(v >> 8);
  p[2] = (uw_u8)(v >> 16);
  p[3] = (uw_u8)(v >> 24);
}

/* The arrays the transform touches, all inside the blob; 0 or -1. */
static int layout(const uw_u8 *b, uw_u32 len, struct uw_pack_layout *l) {
  if (len < UW_TABLE_HEADER_SIZE || uw_le32(b + UW_HDR_MAGIC) != UW_TABLE_MAGIC)
    return -1;
  l->fde_count = uw_le32(b + UW_HDR_FDE_COUNT);
  l->fde_off = uw_le32(b + UW_HDR_FDE_INDEX);
  l->eh_off = uw_le32(b + UW_HDR_EH_FRAME);
  l->eh_len = uw_le32(b + UW_HDR_EH_FRAME_LEN);
  l->sym_count = uw_le32(b + UW_HDR_SYM_COUNT);
  l->sym_off = uw_le32(b + UW_HDR_SYMS);
  if (l->fde_count > len / UW_FDE_ENTRY_SIZE || l->fde_off > len ||
      len - l->fde_off < l->fde_count * UW_FDE_ENTRY_SIZE)
    return -1;
  if (l->sym_count > len / UW_SYM_ENTRY_SIZE || l->sym_off > len ||
      len - l->sym_off < l->sym_count * UW_SYM_ENTRY_SIZE)
    return -1;
  if (l->eh_off > len || len - l->eh_off < l->eh_len)
    return -1;
  /* The header must stay as it is: unpack reads the same layout. */
  if ((l->fde_count && l->fde_off < UW_TABLE_HEADER_SIZE) ||
      (l->sym_count && l->sym_off < UW_TABLE_HEADER_SIZE) ||
      (l->eh_len && l->eh_off < UW_TABLE_HEADER_SIZE))
    return -1;
  return 0;
}

uw_u32 uw_pack_scratch_size(const void *blob, uw_u32 len) {
  struct uw_pack_layout l;
  uw_u32 a, s;
  if (layout(blob, len, &l))
    return 0;
  a = l.fde_count * UW_FDE_ENTRY_SIZE;
  s = l.sym_count * UW_SYM_ENTRY_SIZE;
  return a > s ? a : (s ? s : 1);
}

/* An array of n records of `fields` u32s: field f of record i, as a delta
 * from record i-1's when delta[f], byte k of it in plane (f * 4 + k). */
static void to_planes(uw_u8 *a, uw_u32 n, uw_u32 fields, const int *delta, uw_u8 *scratch) {
  uw_u32 f, i, k;
  for (f = 0; f < fields; f++) {
    uw_u32 prev = 0;
    for (i = 0; i < n; i++) {
      uw_u32 v = uw_le32(a + (i * fields + f) * 4);
      uw_u32 d = delta[f] ? v - prev : v;
      prev = v;
      for (k = 0; k < 4; k++)
        scratch[(f * 4 + k) * n + i] = (uw_u8)(d >> (8 * k));
    }
  }
  for (i = 0; i < n * fields * 4; i++)
    a[i] = scratch[i];
}

static void from_planes(uw_u8 *a, uw_u32 n, uw_u32 fields, const int *delta, uw_u8 *scratch) {
  uw_u32 f, i, k;
  for (i = 0; i < n * fields * 4; i++)
    scratch[i] = a[i];
  for (f = 0; f < fields; f++) {
    uw_u32 prev = 0;
    for (i = 0; i < n; i++) {
      uw_u32 d = 0, v;
      for (k = 0; k < 4; k++)
        d |= (uw_u32)scratch[(f * 4 + k) * n + i] << (8 * k);
      v = delta[f] ? prev + d : d;
      prev = v;
      put32(a + (i * fields + f) * 4, v);
    }
  }
}

/* The .eh_frame copy's FDEs. CIE pointer (nonzero; 0 marks a CIE and is
 * kept): c -> pos + 1 - c, except that the one value mapping to 0 takes
 * the free value pos + 1, so nonzero stays nonzero both ways. pc_begin:
 * (value + position) as a delta from the previous FDE's. Both fields lie
 * inside their record (the walk stops at a record shorter than 8 bytes), so
 * no length the walk reads is ever changed. */
static void eh_frame(uw_u8 *eh, uw_u32 len, int pack) {
  uw_u32 o = 0, prev = 0;
  while (len - o >= 8) {
    uw_u32 rec = uw_le32(eh + o), pos = o + 4, id;
    if (rec < 8 || rec == 0xffffffffu || rec > len - o - 4)
      break;
    id = uw_le32(eh + pos);
    if (id != 0) {
      if (pack) {
        uw_u32 v = pos + 1 - id;
        put32(eh + pos, v ? v : pos + 1);
      } else {
        put32(eh + pos, id == pos + 1 ? pos + 1 : pos + 1 - id);
      }
      {
        uw_u32 at = o + 8, pc = uw_le32(eh + at);
        if (pack) {
          uw_u32 abs = pc + at;
          put32(eh + at, abs - prev);
          prev = abs;
        } else {
          uw_u32 abs = pc + prev;
          put32(eh + at, abs - at);
          prev = abs;
        }
      }
    }
    o += 4 + rec;
  }
}

static const int fde_delta[2] = {1, 1};
static const int sym_delta[3] = {1, 0, 1};

int uw_pack(void *blob, uw_u32 len, void *scratch) {
  uw_u8 *b = blob;
  struct uw_pack_layout l;
  if (layout(b, len, &l))
    return -1;
  to_planes(b + l.fde_off, l.fde_count, 2, fde_delta, scratch);
  to_planes(b + l.sym_off, l.sym_count, 3, sym_delta, scratch);
  eh_frame(b + l.eh_off, l.eh_len, 1);
  return 0;
}

int uw_unpack(void *blob, uw_u32 len, void *scratch) {
  uw_u8 *b = blob;
  struct uw_pack_layout l;
  if (layout(b, len, &l))
    return -1;
  eh_frame(b + l.eh_off, l.eh_len, 0);
  from_planes(b + l.sym_off, l.sym_count, 3, sym_delta, scratch);
  from_planes(b + l.fde_off, l.fde_count, 2, fde_delta, scratch);
  return 0;
}
