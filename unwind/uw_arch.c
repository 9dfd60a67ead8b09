/* x86_64 and i386 register facts and error texts. */
#include "uw_arch.h"

unsigned uw_pc_reg(uw_u8 arch) { return uw_arch_pc(arch); }

unsigned uw_sp_reg(uw_u8 arch) { return uw_arch_sp(arch); }

unsigned uw_addr_size(uw_u8 arch) { return uw_arch_addr_size(arch); }

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
