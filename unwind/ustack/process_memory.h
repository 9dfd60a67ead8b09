// Reads a traced process's memory through /proc/PID/mem; the unwinder's
// memory callback. Failed or short reads are reported, never guessed.
#pragma once

#include <cstdint>
#include <sys/types.h>

extern "C" {
#include "unwind.h"
}

namespace ustack {

class ProcessMemory {
public:
  explicit ProcessMemory(pid_t pid);
  ~ProcessMemory();
  ProcessMemory(const ProcessMemory &) = delete;
  ProcessMemory &operator=(const ProcessMemory &) = delete;

  bool ok() const { return fd_ >= 0; }
  bool read(uint64_t addr, void *dst, size_t len) const;
  uw_memory as_uw_memory() const;
  unsigned long reads() const { return reads_; }

private:
  static int uw_read(void *ctx, uw_u64 addr, void *dst, uw_u32 len);
  int fd_ = -1;
  mutable unsigned long reads_ = 0;
};

} // namespace ustack
