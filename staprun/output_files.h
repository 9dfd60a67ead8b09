// -o FILE with -S SIZE[,N] and switch_file(): staprun's output goes to
// numbered files FILE.0, FILE.1, ... With -S, a file that would grow past
// SIZE megabytes is closed and the next one opened, and with N only the
// newest N files are kept (the oldest is removed). switch_file() in a
// script moves to the next file at that point of the output; without -S
// the first file is FILE itself and the ones after it FILE.1, FILE.2...
#pragma once
#include <cstddef>
#include <cstdint>
#include <string>

namespace staprun {

// Writes all of p[0..n) to fd, going on after EINTR and short writes.
bool write_all(int fd, const char *p, size_t n);

class OutputFiles {
public:
  // size_mb 0: no size limit; max_files 0: keep them all.
  OutputFiles(std::string path, uint64_t size_mb, unsigned max_files);
  ~OutputFiles();
  OutputFiles(const OutputFiles &) = delete;
  OutputFiles &operator=(const OutputFiles &) = delete;

  // Opens the first file; false (errno set) if it cannot be.
  bool open_first();
  // Writes all of buf to the current file, moving to the next one first
  // when it would pass the size limit.
  bool write(const char *buf, size_t n);
  // switch_file(): closes the current file and opens the next.
  bool next();
  // The file being written, for messages.
  std::string current_name() const { return name_of(number_); }

private:
  std::string name_of(unsigned number) const;
  bool open_number(unsigned number);

  std::string path_;
  uint64_t limit_;
  unsigned max_files_;
  bool numbered_;
  unsigned number_ = 0;
  uint64_t size_ = 0;
  int fd_ = -1;
};

} // namespace staprun
