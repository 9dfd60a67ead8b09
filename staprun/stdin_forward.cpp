#include "stdin_forward.h"

#include <cerrno>
#include <fcntl.h>
#include <unistd.h>

namespace staprun {

StdinForward::StdinForward(const std::string &module_name) {
  std::string path = "/proc/systemtap/" + module_name + "/__stdin";
  file_ = open(path.c_str(), O_WRONLY | O_CLOEXEC);
}

StdinForward::~StdinForward() {
  if (file_ >= 0)
    close(file_);
}

void StdinForward::forward() {
  char buf[4096];
  ssize_t n = read(0, buf, sizeof(buf));
  if (n < 0 && (errno == EINTR || errno == EAGAIN))
    return;
  if (n <= 0) {
    close(file_);
    file_ = -1;
    return;
  }
  for (ssize_t i = 0; i < n; ++i)
    while (write(file_, buf + i, 1) < 0 && errno == EINTR) {
    }
}

} // namespace staprun
