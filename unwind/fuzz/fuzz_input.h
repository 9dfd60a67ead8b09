/* Shared by the fuzzers: carving a fuzz input into fields, a memory
 * callback over input bytes, and a table built around fuzzed CFI. */
#ifndef UW_FUZZ_INPUT_H
#define UW_FUZZ_INPUT_H

#include "uw_cfi.h"
#include "uw_table.h"

#include <stddef.h>
#include <stdint.h>
#include <string.h>

struct fuzz_input {
  const uint8_t *p;
  size_t left;
};

static inline uint64_t take_u64(struct fuzz_input *in, unsigned n) {
  uint64_t v = 0;
  for (unsigned i = 0; i < n && in->left; i++, in->p++, in->left--)
    v |= (uint64_t)*in->p << (8 * i);
  return v;
}

static inline const uint8_t *take_bytes(struct fuzz_input *in, size_t n,
                                        size_t *got) {
  const uint8_t *p = in->p;
  *got = n < in->left ? n : in->left;
  in->p += *got;
  in->left -= *got;
  return p;
}

/* Memory: one readable window [base, base+len). */
struct fuzz_memory {
  uint64_t base;
  const uint8_t *bytes;
  size_t len;
  unsigned long reads;
};

static inline int fuzz_read(void *ctx, uw_u64 addr, void *dst, uw_u32 len) {
  struct fuzz_memory *m = ctx;
  m->reads++;
  if (addr < m->base || addr - m->base > m->len || len > m->len - (addr - m->base))
    return -1;
  memcpy(dst, m->bytes + (addr - m->base), len);
  return 0;
}

/* Wraps fuzzed .eh_frame bytes in a table whose index comes from walking
 * them (what the builder would do). Returns the table length, 0 if none. */
static inline uint32_t fuzz_make_table(uint8_t *out, uint32_t cap,
                                       const uint8_t *eh, uint32_t eh_len,
                                       uint64_t eh_vaddr, uint8_t arch) {
  struct uw_cfi_section s = {eh, eh_len, eh_vaddr, 1,
                             (uint8_t)(arch == UW_ARCH_I386 ? 4 : 8)};
  uint32_t off = 0, n = 0, at = UW_TABLE_HEADER_SIZE, i;
  uint32_t pcs[64], refs[64];
  while (off < eh_len && n < 64) {
    int kind;
    uint32_t next;
    struct uw_fde fde;
    if (uw_cfi_record(&s, off, &kind, &next) || kind == UW_REC_TERMINATOR)
      break;
    if (kind == UW_REC_FDE && uw_cfi_parse_fde(&s, off, &fde) == 0 &&
        fde.pc_begin <= 0xffffffffu) {
      /* insertion keeps the index sorted */
      uint32_t j = n++;
      while (j > 0 && pcs[j - 1] > (uint32_t)fde.pc_begin) {
        pcs[j] = pcs[j - 1];
        refs[j] = refs[j - 1];
        j--;
      }
      pcs[j] = (uint32_t)fde.pc_begin;
      refs[j] = off;
    }
    if (next <= off)
      break;
    off = next;
  }
  if (cap < at + 8 * n + eh_len)
    return 0;
  memset(out, 0, UW_TABLE_HEADER_SIZE);
  for (i = 0; i < n; i++) {
    memcpy(out + at + 8 * i, &pcs[i], 4);
    memcpy(out + at + 8 * i + 4, &refs[i], 4);
  }
  memcpy(out + at + 8 * n, eh, eh_len);
  {
    uint32_t magic = UW_TABLE_MAGIC, total = at + 8 * n + eh_len;
    uint32_t eh_off = at + 8 * n, hs = UW_TABLE_HEADER_SIZE;
    memcpy(out + UW_HDR_MAGIC, &magic, 4);
    out[UW_HDR_ARCH] = arch;
    out[UW_HDR_VERSION] = UW_TABLE_VERSION;
    memcpy(out + UW_HDR_SIZE, &hs, 2);
    memcpy(out + UW_HDR_TOTAL_LEN, &total, 4);
    memcpy(out + UW_HDR_FDE_COUNT, &n, 4);
    memcpy(out + UW_HDR_FDE_INDEX, &at, 4);
    memcpy(out + UW_HDR_EH_FRAME, &eh_off, 4);
    memcpy(out + UW_HDR_EH_FRAME_LEN, &eh_len, 4);
    memcpy(out + UW_HDR_SYMS, &total, 4);
    memcpy(out + UW_HDR_STRINGS, &total, 4);
    memcpy(out + UW_HDR_EH_FRAME_VADDR, &eh_vaddr, 8);
    return total;
  }
}

#endif
