// Register capture and scrubbing; see target_regs.h.
#include "target_regs.h"

#include <sys/ptrace.h>
#include <sys/user.h>

namespace ustack {

bool parse_scrub(const std::string &s, Scrub &out) {
  if (s == "none")
    out = Scrub::None;
  else if (s == "syscall")
    out = Scrub::Syscall;
  else
    return false;
  return true;
}

bool read_target_regs(pid_t tid, uw_regs &out) {
  user_regs_struct u;
  if (ptrace(PTRACE_GETREGS, tid, nullptr, &u) != 0)
    return false;
  out = {};
  out.flags = UW_PC_EXACT; // a stopped thread's pc is not a return address
  if (u.cs == 0x23) {      // __USER32_CS: an i386 process
    out.arch = UW_ARCH_I386;
    const unsigned long long v[9] = {u.rax, u.rcx, u.rdx, u.rbx, u.rsp,
                                     u.rbp, u.rsi, u.rdi, u.rip};
    for (unsigned i = 0; i < 9; ++i)
      out.val[i] = v[i] & 0xffffffffu;
    out.valid = 0x1ff;
  } else {
    out.arch = UW_ARCH_X86_64;
    const unsigned long long v[17] = {u.rax, u.rdx, u.rcx, u.rbx, u.rsi, u.rdi,
                                      u.rbp, u.rsp, u.r8,  u.r9,  u.r10, u.r11,
                                      u.r12, u.r13, u.r14, u.r15, u.rip};
    for (unsigned i = 0; i < 17; ++i)
      out.val[i] = v[i];
    out.valid = 0x1ffff;
  }
  return true;
}

// x86_64: the partial pt_regs a syscall entry has always saved holds the
// argument/scratch registers (rax rcx rdx rsi rdi r8-r11) plus rip and rsp;
// the callee-saved rbx rbp r12-r15 are only in a "full" frame, which a
// kernel probe cannot count on. i386 entry (int80 and sysenter) always
// saves every register, so nothing is dropped there.
void scrub_regs(uw_regs &r, Scrub scrub) {
  if (scrub == Scrub::None || r.arch != UW_ARCH_X86_64)
    return;
  const uw_u32 callee_saved = 1u << 3 | 1u << 6 | 1u << 12 | 1u << 13 |
                              1u << 14 | 1u << 15;
  r.valid &= ~callee_saved;
  for (unsigned i = 0; i < UW_NREGS; ++i)
    if (!(r.valid >> i & 1u))
      r.val[i] = 0;
}

} // namespace ustack
