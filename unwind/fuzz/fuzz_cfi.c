/* libFuzzer target: hostile CFI. The input is a CFI section (.eh_frame or
 * .debug_frame, 4- or 8-byte addresses); every record is parsed and every
 * FDE's program run to a few pcs. Must never crash, read out of bounds or
 * loop without bound. */
#include "fuzz_input.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  struct fuzz_input in = {data, size};
  uint8_t mode = (uint8_t)take_u64(&in, 1);
  uint64_t pick = take_u64(&in, 4);
  struct uw_cfi_section s;
  uint32_t off = 0, records = 0;
  s.data = in.p;
  s.len = (uint32_t)in.left;
  s.vaddr = 0x10000;
  s.is_eh = !(mode & 1);
  s.addr_size = (mode & 2) ? 4 : 8;
  while (off < s.len && records++ < 256) {
    int kind;
    uint32_t next;
    struct uw_fde fde;
    if (uw_cfi_record(&s, off, &kind, &next) || kind == UW_REC_TERMINATOR)
      break;
    if (kind == UW_REC_FDE && uw_cfi_parse_fde(&s, off, &fde) == 0) {
      struct uw_row row;
      uint64_t len = fde.pc_end - fde.pc_begin;
      uw_cfi_run(&s, &fde, fde.pc_begin, &row);
      if (len)
        uw_cfi_run(&s, &fde, fde.pc_begin + pick % len, &row);
      uw_cfi_run(&s, &fde, fde.pc_end - 1, &row);
    }
    if (next <= off)
      __builtin_trap(); /* the walk must always move forward */
    off = next;
  }
  return 0;
}
