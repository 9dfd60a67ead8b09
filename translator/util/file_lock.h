// An exclusive flock(2) on a lock file, held for the life of the object:
// concurrent stap runs that would build or fetch the same cached thing
// take turns, and the later ones find it done.
#pragma once
#include <fcntl.h>
#include <string>
#include <sys/file.h>
#include <unistd.h>

namespace stap {

class FileLock {
public:
  explicit FileLock(const std::string &path)
      : fd_(open(path.c_str(), O_RDWR | O_CREAT | O_CLOEXEC, 0644)) {
    if (fd_ >= 0)
      flock(fd_, LOCK_EX);
  }
  ~FileLock() {
    if (fd_ >= 0)
      close(fd_); // releases the lock
  }
  FileLock(const FileLock &) = delete;
  FileLock &operator=(const FileLock &) = delete;

private:
  int fd_;
};

} // namespace stap
