/* Signal frames without CFI: the kernel (or libc) returns from a signal
 * handler through a tiny trampoline that calls rt_sigreturn/sigreturn. When
 * no FDE covers it, the trampoline is recognised by its exact code bytes and
 * the interrupted registers are read from the sigcontext the kernel pushed.
 *
 * Layouts (the handler's `ret` has popped pretcode, so sp points just past):
 *  x86_64 rt_sigframe: pretcode; ucontext { flags 8, link 8, stack 24,
 *    mcontext = sigcontext } => sigcontext at sp + 40.
 *  i386 sigframe: pretcode; int sig; sigcontext => sigcontext at sp + 4.
 *  i386 rt_sigframe: pretcode; int sig; pinfo; puc; siginfo (128 bytes);
 *    ucontext { flags 4, link 4, stack 12, mcontext } => sigcontext at
 *    sp + 12 + 128 + 20 = sp + 160. */
#include "uw_arch.h"
#include "uw_expr.h"

/* mov $15,%rax; syscall  (__restore_rt, x86_64) */
static const uw_u8 x86_64_rt[] = {0x48, 0xc7, 0xc0, 0x0f, 0x00,
                                  0x00, 0x00, 0x0f, 0x05};
/* pop %eax; mov $119,%eax; int $0x80  (__restore / __kernel_sigreturn) */
static const uw_u8 i386_sigreturn[] = {0x58, 0xb8, 0x77, 0x00,
                                       0x00, 0x00, 0xcd, 0x80};
/* mov $173,%eax; int $0x80  (__restore_rt / __kernel_rt_sigreturn) */
static const uw_u8 i386_rt_sigreturn[] = {0xb8, 0xad, 0x00, 0x00,
                                          0x00, 0xcd, 0x80};

/* struct sigcontext slot (in words) of each DWARF register. */
static const uw_u8 x86_64_slot[17] = {13, 12, 14, 11, 9, 8, 10, 15, 0,
                                      1,  2,  3,  4,  5, 6, 7,  16};
static const uw_u8 i386_slot[9] = {11, 10, 9, 8, 7, 6, 5, 4, 14};

static int matches(const uw_u8 *code, const uw_u8 *pattern, unsigned n) {
  unsigned i;
  for (i = 0; i < n; i++)
    if (code[i] != pattern[i])
      return 0;
  return 1;
}

static int load_sigcontext(struct uw_regs *r, const struct uw_memory *mem,
                           struct uw_regs *out, uw_u64 sc, const uw_u8 *slot,
                           unsigned nregs, unsigned word) {
  unsigned i;
  out->arch = r->arch;
  out->flags = UW_PC_EXACT; /* the interrupted pc, not a return address */
  out->valid = 0;
  for (i = 0; i < UW_NREGS; i++)
    out->val[i] = 0;
  for (i = 0; i < nregs; i++) {
    uw_u64 v;
    if (uw_mem_read_le(mem, sc + (uw_u64)slot[i] * word, word, &v))
      return UW_EREAD;
    out->val[i] = v;
    out->valid |= 1u << i;
  }
  *r = *out;
  return UW_OK;
}

int uw_sigtramp_step(struct uw_regs *r, const struct uw_memory *mem,
                     struct uw_regs *out) {
  uw_u8 code[9];
  unsigned pc = uw_arch_pc(r->arch), sp = uw_arch_sp(r->arch);
  if (!uw_reg_valid(r, pc) || !uw_reg_valid(r, sp))
    return UW_EUNDEF;
  if (r->arch == UW_ARCH_X86_64) {
    if (mem->read(mem->ctx, r->val[pc], code, sizeof x86_64_rt) ||
        !matches(code, x86_64_rt, sizeof x86_64_rt))
      return UW_ENOCFI;
    return load_sigcontext(r, mem, out, r->val[sp] + 40, x86_64_slot, 17, 8);
  }
  if (mem->read(mem->ctx, r->val[pc], code, sizeof i386_rt_sigreturn))
    return UW_ENOCFI;
  if (matches(code, i386_rt_sigreturn, sizeof i386_rt_sigreturn))
    return load_sigcontext(r, mem, out, (r->val[sp] + 160) & 0xffffffffu,
                           i386_slot, 9, 4);
  if (mem->read(mem->ctx, r->val[pc], code, sizeof i386_sigreturn) == 0 &&
      matches(code, i386_sigreturn, sizeof i386_sigreturn))
    return load_sigcontext(r, mem, out, (r->val[sp] + 4) & 0xffffffffu,
                           i386_slot, 9, 4);
  return UW_ENOCFI;
}
