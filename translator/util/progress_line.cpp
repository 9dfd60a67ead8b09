#include "util/progress_line.h"

#include <sys/ioctl.h>
#include <unistd.h>

namespace stap {
namespace {

void write_all(int fd, const std::string &s) {
  size_t done = 0;
  while (done < s.size()) {
    ssize_t n = write(fd, s.data() + done, s.size() - done);
    if (n <= 0)
      return;
    done += static_cast<size_t>(n);
  }
}

} // namespace

ProgressLine::ProgressLine(std::string what, int delay_ms, int fd)
    : what_(std::move(what)), delay_ms_(delay_ms), fd_(fd),
      start_(std::chrono::steady_clock::now()) {
  active_ = isatty(fd_);
  if (active_)
    thread_ = std::thread([this] { run(); });
}

ProgressLine::~ProgressLine() {
  if (!active_)
    return;
  {
    std::lock_guard<std::mutex> lock(mu_);
    stop_ = true;
  }
  cv_.notify_all();
  thread_.join();
  if (shown_)
    write_all(fd_, "\r\033[K"); // the line goes; what follows starts clean
}

void ProgressLine::set(std::string detail) {
  if (!active_)
    return;
  std::lock_guard<std::mutex> lock(mu_);
  detail_ = std::move(detail);
  if (shown_)
    draw();
}

void ProgressLine::run() {
  std::unique_lock<std::mutex> lock(mu_);
  if (cv_.wait_for(lock, std::chrono::milliseconds(delay_ms_), [this] { return stop_; }))
    return;
  for (;;) {
    shown_ = true;
    draw();
    if (cv_.wait_for(lock, std::chrono::seconds(1), [this] { return stop_; }))
      return;
  }
}

void ProgressLine::draw() {
  auto s = std::chrono::duration_cast<std::chrono::seconds>(std::chrono::steady_clock::now() -
                                                            start_)
               .count();
  std::string line = "stap: " + what_ + (detail_.empty() ? "" : ": " + detail_) + " ... " +
                     std::to_string(s) + " s";
  winsize ws{};
  // Longer than the terminal is wide, it would wrap and \r would not reach
  // its start.
  if (ioctl(fd_, TIOCGWINSZ, &ws) == 0 && ws.ws_col > 8 && line.size() >= ws.ws_col)
    line = line.substr(0, ws.ws_col - 4) + "...";
  write_all(fd_, "\r" + line + "\033[K");
}

} // namespace stap
