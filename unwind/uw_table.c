/* Opening, validating and searching unwind tables. All searches are binary
 * searches over sorted arrays of fixed-size entries. */
#include "uw_arch.h"
#include "uw_table.h"

/* [off, off + count * size) lies within len (no overflow: 64-bit math). */
static int in_bounds(uw_u32 len, uw_u32 off, uw_u32 count, uw_u32 size) {
  return (uw_u64)off + (uw_u64)count * size <= len;
}

int uw_table_open(struct uw_table *t, const void *blob, uw_u32 len) {
  const uw_u8 *b = blob;
  uw_u32 i, fde_off, eh_off, df_off, sym_off, str_off;
  if (!b || len < UW_TABLE_HEADER_SIZE || uw_le32(b) != UW_TABLE_MAGIC ||
      b[UW_HDR_VERSION] != UW_TABLE_VERSION ||
      (b[UW_HDR_SIZE] | b[UW_HDR_SIZE + 1] << 8) != UW_TABLE_HEADER_SIZE ||
      uw_le32(b + UW_HDR_TOTAL_LEN) != len)
    return UW_EBADTABLE;
  t->base = b;
  t->len = len;
  t->arch = b[UW_HDR_ARCH];
  if (t->arch != UW_ARCH_X86_64 && t->arch != UW_ARCH_I386)
    return UW_EBADTABLE;
  t->addr_base = uw_le64(b + UW_HDR_ADDR_BASE);
  t->eh_frame_vaddr = uw_le64(b + UW_HDR_EH_FRAME_VADDR);
  t->fde_count = uw_le32(b + UW_HDR_FDE_COUNT);
  fde_off = uw_le32(b + UW_HDR_FDE_INDEX);
  eh_off = uw_le32(b + UW_HDR_EH_FRAME);
  t->eh_frame_len = uw_le32(b + UW_HDR_EH_FRAME_LEN);
  df_off = uw_le32(b + UW_HDR_DEBUG_FRAME);
  t->debug_frame_len = uw_le32(b + UW_HDR_DEBUG_FRAME_LEN);
  t->sym_count = uw_le32(b + UW_HDR_SYM_COUNT);
  sym_off = uw_le32(b + UW_HDR_SYMS);
  str_off = uw_le32(b + UW_HDR_STRINGS);
  t->strings_len = uw_le32(b + UW_HDR_STRINGS_LEN);
  if (!in_bounds(len, fde_off, t->fde_count, UW_FDE_ENTRY_SIZE) ||
      !in_bounds(len, eh_off, t->eh_frame_len, 1) ||
      !in_bounds(len, df_off, t->debug_frame_len, 1) ||
      !in_bounds(len, sym_off, t->sym_count, UW_SYM_ENTRY_SIZE) ||
      !in_bounds(len, str_off, t->strings_len, 1) ||
      t->eh_frame_len > 0x7fffffffu || t->debug_frame_len > 0x7fffffffu)
    return UW_EBADTABLE;
  /* names must end inside the string table */
  if (t->strings_len && b[str_off + t->strings_len - 1] != 0)
    return UW_EBADTABLE;
  t->fde_index = b + fde_off;
  t->eh_frame = t->eh_frame_len ? b + eh_off : 0;
  t->debug_frame = t->debug_frame_len ? b + df_off : 0;
  t->syms = b + sym_off;
  t->strings = (const char *)(b + str_off);
  /* sorted arrays are what makes the binary searches correct */
  for (i = 1; i < t->fde_count; i++)
    if (uw_le32(t->fde_index + i * UW_FDE_ENTRY_SIZE) <
        uw_le32(t->fde_index + (i - 1) * UW_FDE_ENTRY_SIZE))
      return UW_EBADTABLE;
  for (i = 1; i < t->sym_count; i++)
    if (uw_le32(t->syms + i * UW_SYM_ENTRY_SIZE) <
        uw_le32(t->syms + (i - 1) * UW_SYM_ENTRY_SIZE))
      return UW_EBADTABLE;
  return 0;
}

/* Index of the last entry whose first u32 is <= key, or -1. */
static long last_at_or_below(const uw_u8 *arr, uw_u32 count, uw_u32 size,
                             uw_u32 key) {
  uw_u32 lo = 0, hi = count; /* answer is lo - 1 */
  while (lo < hi) {
    uw_u32 mid = lo + (hi - lo) / 2;
    if (uw_le32(arr + (uw_u64)mid * size) <= key)
      lo = mid + 1;
    else
      hi = mid;
  }
  return (long)lo - 1;
}

void uw_table_section(const struct uw_table *t, int debug_frame,
                      struct uw_cfi_section *s) {
  s->is_eh = !debug_frame;
  s->addr_size = (uw_u8)uw_arch_addr_size(t->arch);
  s->data = debug_frame ? t->debug_frame : t->eh_frame;
  s->len = debug_frame ? t->debug_frame_len : t->eh_frame_len;
  s->vaddr = debug_frame ? 0 : t->eh_frame_vaddr;
}

int uw_table_find_fde(const struct uw_table *t, uw_u64 addr,
                      struct uw_cfi_section *s, struct uw_fde *fde,
                      struct uw_cursor *scratch, struct uw_cie_cache *cache) {
  long i;
  uw_u32 ref;
  if (addr < t->addr_base || addr - t->addr_base > 0xffffffffu)
    return UW_ENOCFI;
  i = last_at_or_below(t->fde_index, t->fde_count, UW_FDE_ENTRY_SIZE,
                       (uw_u32)(addr - t->addr_base));
  if (i < 0)
    return UW_ENOCFI;
  ref = uw_le32(t->fde_index + (uw_u64)i * UW_FDE_ENTRY_SIZE + 4);
  uw_table_section(t, (ref & UW_FDE_REF_DEBUG_FRAME) != 0, s);
  if (uw_cfi_parse_fde_in(s, ref & ~UW_FDE_REF_DEBUG_FRAME, fde, scratch,
                          cache))
    return UW_EBADCFI;
  if (addr < fde->pc_begin || addr >= fde->pc_end)
    return UW_ENOCFI;
  return 0;
}

int uw_table_symbol(const struct uw_table *t, uw_u64 addr, const char **name,
                    uw_u64 *start, uw_u64 *size) {
  long i;
  const uw_u8 *e;
  uw_u32 off, sz, name_off;
  if (addr < t->addr_base || addr - t->addr_base > 0xffffffffu)
    return -1;
  off = (uw_u32)(addr - t->addr_base);
  i = last_at_or_below(t->syms, t->sym_count, UW_SYM_ENTRY_SIZE, off);
  if (i < 0)
    return -1;
  e = t->syms + (uw_u64)i * UW_SYM_ENTRY_SIZE;
  sz = uw_le32(e + 4);
  name_off = uw_le32(e + 8);
  if ((uw_u64)off >= (uw_u64)uw_le32(e) + sz || name_off >= t->strings_len)
    return -1;
  *name = t->strings + name_off;
  *start = t->addr_base + uw_le32(e);
  *size = sz;
  return 0;
}
