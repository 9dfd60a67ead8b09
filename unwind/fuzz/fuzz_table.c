/* libFuzzer target: hostile table blobs (what a module would embed).
 * uw_table_open must reject anything inconsistent; whatever it accepts
 * must be safe to search and to unwind with. */
#include "fuzz_input.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  struct uw_table t;
  struct uw_regs r;
  struct fuzz_memory m = {0x7000, data, size, 0};
  struct uw_memory mem = {fuzz_read, &m};
  struct uw_object obj = {&t, 0};
  const char *name;
  uw_u64 start, len, probe;
  unsigned i;
  if (size > 0xffffffffu || uw_table_open(&t, data, (uw_u32)size) != 0)
    return 0;
  for (probe = 0; probe < 8; probe++) {
    uw_u64 addr = t.addr_base + probe * 0x40;
    if (uw_table_symbol(&t, addr, &name, &start, &len) == 0)
      (void)strlen(name); /* the name must be terminated inside the blob */
    memset(&r, 0, sizeof r);
    r.arch = t.arch;
    r.valid = 0x1ffff;
    for (i = 0; i < UW_NREGS; i++)
      r.val[i] = 0x7000 + 8 * i;
    r.val[uw_pc_reg(t.arch)] = addr;
    for (i = 0; i < 16 && uw_step(&obj, &r, &mem) == UW_OK; i++)
      ;
  }
  return 0;
}
