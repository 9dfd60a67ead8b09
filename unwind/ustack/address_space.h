// The objects mapped in a process (from /proc/PID/maps), each with its load
// bias and its unwind table built by translator/symtab, and the lookup of
// the object containing an address.
#pragma once

#include "process_memory.h"

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

namespace ustack {

struct MappedObject {
  std::string path; // as /proc/PID/maps names it ("[vdso]" for the vDSO)
  uint64_t bias = 0;
  std::vector<uint8_t> blob; // the unwind table
  uw_table table{};
  bool has_table = false;
  std::string error; // why there is no table
};

class AddressSpace {
public:
  // Reads the maps of pid and builds a table for every ELF object in them.
  bool load(pid_t pid, const ProcessMemory &mem, std::string &err);
  // The object whose mapping contains addr, or null.
  const MappedObject *find(uint64_t addr) const;
  const std::vector<std::unique_ptr<MappedObject>> &objects() const {
    return objects_;
  }

private:
  struct Range {
    uint64_t start, end;
    const MappedObject *object;
  };
  std::vector<std::unique_ptr<MappedObject>> objects_;
  std::vector<Range> ranges_; // sorted by start
};

} // namespace ustack
