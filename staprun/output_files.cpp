#include "output_files.h"

#include <cerrno>
#include <fcntl.h>
#include <unistd.h>

namespace staprun {

OutputFiles::OutputFiles(std::string path, uint64_t size_mb, unsigned max_files)
    : path_(std::move(path)), limit_(size_mb << 20), max_files_(max_files),
      numbered_(size_mb > 0 || max_files > 0) {}

OutputFiles::~OutputFiles() {
  if (fd_ >= 0)
    close(fd_);
}

std::string OutputFiles::name_of(unsigned number) const {
  return numbered_ || number > 0 ? path_ + "." + std::to_string(number) : path_;
}

bool OutputFiles::open_number(unsigned number) {
  int fd = open(name_of(number).c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
  if (fd < 0)
    return false;
  if (fd_ >= 0)
    close(fd_);
  fd_ = fd;
  number_ = number;
  size_ = 0;
  // Only the newest max_files_ are kept.
  if (max_files_ && number >= max_files_)
    unlink(name_of(number - max_files_).c_str());
  return true;
}

bool OutputFiles::open_first() { return open_number(0); }

bool OutputFiles::next() { return open_number(number_ + 1); }

bool write_all(int fd, const char *p, size_t n) {
  while (n) {
    ssize_t w = ::write(fd, p, n);
    if (w < 0 && errno == EINTR)
      continue;
    if (w <= 0)
      return false;
    p += w;
    n -= static_cast<size_t>(w);
  }
  return true;
}

bool OutputFiles::write(const char *buf, size_t n) {
  if (limit_ && size_ > 0 && size_ + n > limit_ && !next())
    return false;
  if (!write_all(fd_, buf, n))
    return false;
  size_ += n;
  return true;
}

} // namespace staprun
