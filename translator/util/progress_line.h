// A progress line for work that takes seconds to minutes (a guest boot that
// reads a kernel's symbols, building the i386 guest root, compiling
// tracepoint headers, unwind tables for many -d/--ldd objects):
//
//   stap: compiling 353 tracepoint headers of 6.1.0-56-amd64 ... 41 s
//
// rewritten in place with \r once a second, and erased when the work ends.
// It appears only when stderr is a terminal, and only once the work has
// taken `delay_ms`: fast work (a cache hit) prints nothing, and logs and
// pipes never see it.
#pragma once

#include <chrono>
#include <condition_variable>
#include <mutex>
#include <string>
#include <thread>

namespace stap {

class ProgressLine {
public:
  explicit ProgressLine(std::string what, int delay_ms = 1000, int fd = 2);
  ~ProgressLine();
  ProgressLine(const ProgressLine &) = delete;
  ProgressLine &operator=(const ProgressLine &) = delete;

  // What is being done now, after the fixed text: "12/40 libc.so.6".
  void set(std::string detail);
  // Does the line show at all (the fd is a terminal)?
  bool active() const { return active_; }

private:
  void run();
  void draw(); // with mu_ held

  std::string what_, detail_;
  int delay_ms_, fd_;
  std::chrono::steady_clock::time_point start_;
  bool active_ = false, shown_ = false, stop_ = false;
  std::mutex mu_;
  std::condition_variable cv_;
  std::thread thread_;
};

} // namespace stap
