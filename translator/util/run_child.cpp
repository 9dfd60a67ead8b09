#include "util/run_child.h"

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <sys/wait.h>
#include <unistd.h>

namespace stap {

ChildResult run_child(const std::vector<std::string> &argv, bool merge_stderr,
                      const std::vector<std::string> *env, const std::string &cwd) {
  ChildResult r;
  int fds[2];
  if (argv.empty() || pipe(fds) != 0)
    return r;
  pid_t pid = fork();
  if (pid < 0) {
    close(fds[0]);
    close(fds[1]);
    return r;
  }
  if (pid == 0) {
    dup2(fds[1], STDOUT_FILENO);
    if (merge_stderr)
      dup2(fds[1], STDERR_FILENO);
    close(fds[0]);
    close(fds[1]);
    std::vector<char *> args;
    for (const auto &a : argv)
      args.push_back(const_cast<char *>(a.c_str()));
    args.push_back(nullptr);
    if (!cwd.empty() && chdir(cwd.c_str()) != 0)
      _exit(127);
    if (env) {
      std::vector<char *> envp;
      for (const auto &e : *env)
        envp.push_back(const_cast<char *>(e.c_str()));
      envp.push_back(nullptr);
      execvpe(args[0], args.data(), envp.data());
    } else {
      execvp(args[0], args.data());
    }
    std::fprintf(stderr, "cannot run %s: %s\n", args[0], std::strerror(errno));
    _exit(127);
  }
  close(fds[1]);
  char buf[4096];
  ssize_t n;
  while ((n = read(fds[0], buf, sizeof buf)) > 0 || (n < 0 && errno == EINTR))
    if (n > 0)
      r.output.append(buf, n);
  close(fds[0]);
  int status = 0;
  while (waitpid(pid, &status, 0) < 0 && errno == EINTR) {
  }
  r.status = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  return r;
}

} // namespace stap
