/* .eh_frame_hdr: version 1, three encodings, the .eh_frame pointer, the
 * entry count, then sorted (initial location, FDE address) pairs encoded
 * relative to the header (normally DW_EH_PE_datarel | DW_EH_PE_sdata4). */
#include "uw_eh_hdr.h"

int uw_eh_hdr_open(struct uw_eh_hdr *h, const uw_u8 *data, uw_u32 len,
                   uw_u64 vaddr, unsigned addr_size) {
  struct uw_cursor c;
  struct uw_ptr_bases b = {vaddr, 0};
  uw_u8 version, ptr_enc, count_enc;
  uw_u64 count;
  uw_cursor_init(&c, data, len, vaddr);
  version = uw_get_u8(&c);
  ptr_enc = uw_get_u8(&c);
  count_enc = uw_get_u8(&c);
  h->table_enc = uw_get_u8(&c);
  if (c.err || version != 1 || count_enc == UW_PE_OMIT ||
      h->table_enc == UW_PE_OMIT || (ptr_enc & UW_PE_INDIRECT) ||
      uw_get_encoded(&c, ptr_enc, addr_size, &b, &h->eh_frame) ||
      uw_get_encoded(&c, count_enc, addr_size, &b, &count))
    return -1;
  h->entry_size = 2 * uw_encoded_size(h->table_enc, addr_size);
  if (h->entry_size == 0 || (h->table_enc & UW_PE_INDIRECT) ||
      count > uw_udiv64(uw_left(&c), h->entry_size))
    return -1;
  h->data = data;
  h->len = len;
  h->vaddr = vaddr;
  h->addr_size = addr_size;
  h->count = (uw_u32)count;
  h->table_off = (uw_u32)(c.p - data);
  return 0;
}

int uw_eh_hdr_entry(const struct uw_eh_hdr *h, uw_u32 i, uw_u64 *pc,
                    uw_u64 *fde) {
  struct uw_cursor c;
  struct uw_ptr_bases b = {h->vaddr, 0};
  if (i >= h->count)
    return -1;
  uw_cursor_init(&c, h->data, h->len, h->vaddr);
  c.p += h->table_off + (uw_u64)i * h->entry_size;
  if (uw_get_encoded(&c, h->table_enc, h->addr_size, &b, pc) ||
      uw_get_encoded(&c, h->table_enc, h->addr_size, &b, fde))
    return -1;
  return 0;
}

int uw_eh_hdr_find(const struct uw_eh_hdr *h, uw_u64 pc, uw_u64 *fde) {
  uw_u32 lo = 0, hi = h->count;
  uw_u64 start, f;
  while (lo < hi) {
    uw_u32 mid = lo + (hi - lo) / 2;
    if (uw_eh_hdr_entry(h, mid, &start, &f))
      return -1;
    if (start <= pc)
      lo = mid + 1;
    else
      hi = mid;
  }
  if (lo == 0)
    return -1;
  return uw_eh_hdr_entry(h, lo - 1, &start, fde);
}
