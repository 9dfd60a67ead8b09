// A stopped thread's registers as the unwinder's register set, for either
// architecture, and the scrubbing that mimics what kernel context sees.
#pragma once

#include <string>
#include <sys/types.h>

extern "C" {
#include "unwind.h"
}

namespace ustack {

enum class Scrub {
  None,    // every register ptrace reports
  Syscall, // only what the syscall entry saved as user values (see .cpp)
};

bool parse_scrub(const std::string &s, Scrub &out);

// Reads tid's registers with PTRACE_GETREGS; the architecture comes from
// the code segment (0x23 is the 32-bit user segment). Returns false on error.
bool read_target_regs(pid_t tid, uw_regs &out);

// Marks the registers scrub does not keep as undefined.
void scrub_regs(uw_regs &r, Scrub scrub);

} // namespace ustack
