// Collects (function start, FDE reference) pairs for the table's index,
// from .eh_frame_hdr's search table when it is present and consistent, else
// by walking .eh_frame; .debug_frame FDEs fill ranges .eh_frame lacks.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace stap::symtab {

struct FdeEntry {
  uint64_t pc;  // link-time start of the covered range
  uint64_t end; // link-time end
  uint32_t ref; // offset in its section; high bit set for .debug_frame
};

struct CfiInput {
  const std::vector<uint8_t> *eh_frame = nullptr;
  uint64_t eh_frame_vaddr = 0;
  const std::vector<uint8_t> *eh_frame_hdr = nullptr;
  uint64_t eh_frame_hdr_vaddr = 0;
  const std::vector<uint8_t> *debug_frame = nullptr;
  unsigned addr_size = 8;
};

// Sorted by pc; FDEs with an empty range are left out. Returns false with
// err set when a record does not parse.
bool index_fdes(const CfiInput &in, std::vector<FdeEntry> &out,
                bool &used_hdr, std::string &err);

} // namespace stap::symtab
