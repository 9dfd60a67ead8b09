// Walks a thread's stack with unwind/ and formats it the way SystemTap's
// print_ubacktrace() does.
#pragma once

#include "address_space.h"

#include <string>
#include <vector>

namespace ustack {

struct Frame {
  uint64_t pc;
  bool exact; // pc is an interrupted instruction, not a return address
};

struct Walk {
  std::vector<Frame> frames;
  int stop = UW_END; // why the walk ended (UW_END, or a UW_E* code)
};

Walk walk_stack(uw_regs regs, const AddressSpace &space,
                const ProcessMemory &mem, unsigned max_frames);

// " 0xADDR : symbol+0xoff/0xsize [object]", or " 0xADDR [object+0xoff]"
// when no symbol covers the address; 16 hex digits for 64-bit targets, 8
// for 32-bit ones.
std::string format_frame(const Frame &f, const AddressSpace &space, bool is32);

} // namespace ustack
