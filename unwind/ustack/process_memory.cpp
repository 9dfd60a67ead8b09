// ProcessMemory; see process_memory.h.
#include "process_memory.h"

#include <fcntl.h>
#include <string>
#include <unistd.h>

namespace ustack {

ProcessMemory::ProcessMemory(pid_t pid) {
  std::string path = "/proc/" + std::to_string(pid) + "/mem";
  fd_ = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
}

ProcessMemory::~ProcessMemory() {
  if (fd_ >= 0)
    ::close(fd_);
}

bool ProcessMemory::read(uint64_t addr, void *dst, size_t len) const {
  ++reads_;
  if (addr > static_cast<uint64_t>(INT64_MAX) - len)
    return false; // pread's offset is signed
  ssize_t n = ::pread(fd_, dst, len, static_cast<off_t>(addr));
  return n == static_cast<ssize_t>(len);
}

int ProcessMemory::uw_read(void *ctx, uw_u64 addr, void *dst, uw_u32 len) {
  return static_cast<const ProcessMemory *>(ctx)->read(addr, dst, len) ? 0 : -1;
}

uw_memory ProcessMemory::as_uw_memory() const {
  return uw_memory{&ProcessMemory::uw_read, const_cast<ProcessMemory *>(this)};
}

} // namespace ustack
