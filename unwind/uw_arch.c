/* x86_64 and i386 register facts and error texts. */
#include "uw_arch.h"

unsigned uw_pc_reg(uw_u8 arch) {
  return arch == UW_ARCH_I386 ? UW_I386_PC : UW_X86_64_PC;
}

unsigned uw_sp_reg(uw_u8 arch) {
  return arch == UW_ARCH_I386 ? UW_I386_SP : UW_X86_64_SP;
}

unsigned uw_addr_size(uw_u8 arch) { return arch == UW_ARCH_I386 ? 4 : 8; }

uw_u32 uw_callee_saved(uw_u8 arch) {
  if (arch == UW_ARCH_I386) /* ebx esp ebp esi edi */
    return 1u << 3 | 1u << 4 | 1u << 5 | 1u << 6 | 1u << 7;
  /* rbx rbp rsp r12-r15 */
  return 1u << 3 | 1u << 6 | 1u << 7 | 1u << 12 | 1u << 13 | 1u << 14 |
         1u << 15;
}

uw_u32 uw_all_regs(uw_u8 arch) {
  return arch == UW_ARCH_I386 ? 0x1ffu : 0x1ffffu;
}

const char *uw_strerror(int code) {
  switch (code) {
  case UW_OK: return "ok";
  case UW_END: return "outermost frame";
  case UW_ENOCFI: return "no unwind information for pc";
  case UW_EBADCFI: return "malformed or unsupported CFI";
  case UW_EUNDEF: return "rule needs an unknown register";
  case UW_EREAD: return "memory not readable";
  case UW_ELIMIT: return "unwinder limit reached";
  case UW_EBADTABLE: return "malformed unwind table";
  case UW_ENOPROGRESS: return "frame does not progress";
  default: return "unknown error";
  }
}
