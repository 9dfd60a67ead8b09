/* libFuzzer target: hostile CFI and hostile stacks together. The input
 * gives an architecture, a register set, an .eh_frame and a stack; the
 * table is built around the CFI and the walk runs to its end. Each step
 * must return, and the walk is cut at 64 frames. */
#include "fuzz_input.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#define MAX_FRAMES 64

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  static uint8_t table_buf[1 << 16];
  static struct uw_workspace ws; /* dirty from the previous input */
  struct fuzz_input in = {data, size};
  uint8_t mode = (uint8_t)take_u64(&in, 1);
  uint8_t arch = (mode & 1) ? UW_ARCH_I386 : UW_ARCH_X86_64;
  struct uw_regs r;
  struct uw_table t;
  struct fuzz_memory stack;
  struct uw_memory mem = {fuzz_read, &stack};
  struct uw_object obj;
  size_t eh_len, stack_len;
  const uint8_t *eh, *stack_bytes;
  unsigned i, frames = 0;
  uint32_t tlen;

  memset(&r, 0, sizeof r);
  r.arch = arch;
  r.flags = (mode & 2) ? UW_PC_EXACT : 0;
  r.valid = (uint32_t)take_u64(&in, 3);
  for (i = 0; i < UW_NREGS; i++)
    r.val[i] = take_u64(&in, (mode & 4) ? 2 : 1) + ((mode & 8) ? 0x7000 : 0x10000);
  eh = take_bytes(&in, (size_t)take_u64(&in, 2) % 4096, &eh_len);
  stack_bytes = take_bytes(&in, in.left, &stack_len);
  stack.base = 0x7000;
  stack.bytes = stack_bytes;
  stack.len = stack_len;
  stack.reads = 0;

  tlen = fuzz_make_table(table_buf, sizeof table_buf, eh, (uint32_t)eh_len,
                         0x10000, arch);
  obj.table = (tlen && uw_table_open(&t, table_buf, tlen) == 0) ? &t : 0;
  obj.bias = 0;
  uw_workspace_init(&ws);
  while (frames++ < MAX_FRAMES && uw_step_ws(&obj, &r, &mem, &ws) == UW_OK)
    ;
  return 0;
}
