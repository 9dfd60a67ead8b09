#include "remote/qemu_process.h"

#include "remote/vm.h"
#include "util/spawn_child.h"

#include <cerrno>
#include <csignal>
#include <cstring>
#include <fcntl.h>
#include <sys/wait.h>
#include <unistd.h>

namespace stap::remote {

QemuProcess::QemuProcess(const std::vector<std::string> &argv, const std::string &console_path) {
  int console = open(console_path.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
  if (console < 0)
    throw VmError("cannot create " + console_path + ": " + std::strerror(errno));
  start_ = end_ = std::chrono::steady_clock::now();
  // No guest outlives the runner, however the runner ends.
  ChildFiles files;
  files.out = files.err = console;
  pid_ = spawn_child(argv, files, kChildDiesWithParent);
  int fork_errno = errno;
  close(console);
  if (pid_ < 0)
    throw VmError(std::string("fork: ") + std::strerror(fork_errno));
}

QemuProcess::~QemuProcess() { kill(); }

bool QemuProcess::exited() {
  if (exited_)
    return true;
  int status;
  pid_t r = waitpid(pid_, &status, WNOHANG);
  if (r == pid_ || (r < 0 && errno == ECHILD)) {
    exited_ = true;
    end_ = std::chrono::steady_clock::now();
  }
  return exited_;
}

void QemuProcess::kill() {
  if (exited_ || pid_ <= 0)
    return;
  ::kill(pid_, SIGKILL);
  int status;
  while (waitpid(pid_, &status, 0) < 0 && errno == EINTR) {
  }
  exited_ = true;
  end_ = std::chrono::steady_clock::now();
}

double QemuProcess::wall_s() const {
  auto end = exited_ ? end_ : std::chrono::steady_clock::now();
  return std::chrono::duration<double>(end - start_).count();
}

} // namespace stap::remote
