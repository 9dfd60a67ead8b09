#include "util/spawn_child.h"

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <unistd.h>

namespace stap {

bool make_pipe(int pipe_fds[2]) { return pipe2(pipe_fds, O_CLOEXEC) == 0; }

pid_t spawn_child(const std::vector<std::string> &argv, const ChildFiles &files,
                  unsigned flags) {
  if (argv.empty()) {
    errno = EINVAL;
    return -1;
  }
  // Built before the fork: the child only execs.
  std::vector<char *> args;
  for (const auto &a : argv)
    args.push_back(const_cast<char *>(a.c_str()));
  args.push_back(nullptr);
  pid_t pid = fork();
  if (pid != 0)
    return pid;
  if (flags & kChildOwnGroup)
    setpgid(0, 0);
  if (flags & kChildDiesWithParent)
    prctl(PR_SET_PDEATHSIG, SIGKILL);
  int null = open("/dev/null", O_RDWR);
  const int targets[3] = {STDIN_FILENO, STDOUT_FILENO, STDERR_FILENO};
  const int sources[3] = {files.in, files.out, files.err};
  for (int i = 0; i < 3; ++i)
    dup2(sources[i] >= 0 ? sources[i] : null, targets[i]);
  if (null > STDERR_FILENO)
    close(null);
  execvp(args[0], args.data());
  std::fprintf(stderr, "cannot run %s: %s\n", args[0], std::strerror(errno));
  _exit(127);
}

pid_t spawn_child_piped(const std::vector<std::string> &argv, unsigned flags, int &out_fd,
                        int &err_fd) {
  int o[2], e[2];
  if (!make_pipe(o))
    return -1;
  if (!make_pipe(e)) {
    close(o[0]);
    close(o[1]);
    return -1;
  }
  ChildFiles files;
  files.out = o[1];
  files.err = e[1];
  pid_t pid = spawn_child(argv, files, flags);
  close(o[1]);
  close(e[1]);
  if (pid < 0) {
    close(o[0]);
    close(e[0]);
    return -1;
  }
  out_fd = o[0];
  err_fd = e[0];
  return pid;
}

int wait_child(pid_t pid) {
  int status = 0;
  while (waitpid(pid, &status, 0) < 0)
    if (errno != EINTR)
      return -1;
  return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

int run_child_captured(const std::vector<std::string> &argv, unsigned flags, std::string &out,
                       std::string &err) {
  int fds[2];
  pid_t pid = spawn_child_piped(argv, flags, fds[0], fds[1]);
  if (pid < 0)
    return -1;
  std::string *bufs[2] = {&out, &err};
  int open_count = 2;
  while (open_count > 0) {
    pollfd p[2];
    int n = 0, which[2];
    for (int i = 0; i < 2; ++i)
      if (fds[i] >= 0) {
        p[n] = {fds[i], POLLIN, 0};
        which[n++] = i;
      }
    if (poll(p, n, -1) < 0) {
      if (errno == EINTR)
        continue;
      break;
    }
    for (int k = 0; k < n; ++k) {
      if (!p[k].revents)
        continue;
      int i = which[k];
      char buf[4096];
      ssize_t got = read(fds[i], buf, sizeof buf);
      if (got > 0) {
        bufs[i]->append(buf, got);
      } else if (got == 0 || errno != EINTR) {
        close(fds[i]);
        fds[i] = -1;
        open_count--;
      }
    }
  }
  for (int fd : fds)
    if (fd >= 0)
      close(fd);
  return wait_child(pid);
}

} // namespace stap
