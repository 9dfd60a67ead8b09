// A running qemu: started with its serial console going to a file, watched
// without blocking, killed when it hangs.
#pragma once

#include <chrono>
#include <string>
#include <sys/types.h>
#include <vector>

namespace stap::remote {

class QemuProcess {
public:
  // Starts `argv`; stdin is /dev/null, stdout and stderr go to `console_path`.
  // Throws VmError if it cannot be started.
  QemuProcess(const std::vector<std::string> &argv, const std::string &console_path);
  ~QemuProcess(); // kills it if it still runs
  QemuProcess(const QemuProcess &) = delete;
  QemuProcess &operator=(const QemuProcess &) = delete;

  // Has it exited? Never blocks.
  bool exited();
  void kill();
  // Start to exit (or to now, while it runs).
  double wall_s() const;

private:
  pid_t pid_ = -1;
  bool exited_ = false;
  std::chrono::steady_clock::time_point start_, end_;
};

} // namespace stap::remote
