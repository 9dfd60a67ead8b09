#include "remote/vm_files.h"

#include "remote/vm.h"

#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <sstream>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

namespace stap::remote {

std::string vm_cache_dir() {
  const char *env = std::getenv("STAP_VM_CACHE");
  return env && *env ? env : "/var/cache/stap-vm";
}

std::string vm_scripts_dir() {
  const char *env = std::getenv("STAP_VM_SCRIPTS");
  return env && *env ? env : STAP_SCRIPTS_DIR "/vm";
}

bool path_exists(const std::string &path) {
  struct stat st;
  return stat(path.c_str(), &st) == 0;
}

bool is_directory(const std::string &path) {
  struct stat st;
  return stat(path.c_str(), &st) == 0 && S_ISDIR(st.st_mode);
}

std::string read_text_file(const std::string &path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

void write_text_file(const std::string &path, const std::string &text) {
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  out << text;
  out.close();
  if (!out)
    throw VmError("cannot write " + path + ": " + std::strerror(errno));
}

std::string run_for_output(const std::vector<std::string> &argv) {
  int fds[2];
  if (pipe(fds) != 0)
    throw VmError(std::string("pipe: ") + std::strerror(errno));
  pid_t pid = fork();
  if (pid < 0)
    throw VmError(std::string("fork: ") + std::strerror(errno));
  if (pid == 0) {
    dup2(fds[1], STDOUT_FILENO);
    close(fds[0]);
    close(fds[1]);
    std::vector<char *> args;
    for (const auto &a : argv)
      args.push_back(const_cast<char *>(a.c_str()));
    args.push_back(nullptr);
    execvp(args[0], args.data());
    std::fprintf(stderr, "cannot run %s: %s\n", args[0], std::strerror(errno));
    _exit(127);
  }
  close(fds[1]);
  std::string out;
  char buf[4096];
  ssize_t n;
  while ((n = read(fds[0], buf, sizeof buf)) > 0 || (n < 0 && errno == EINTR))
    if (n > 0)
      out.append(buf, n);
  close(fds[0]);
  int status = 0;
  while (waitpid(pid, &status, 0) < 0 && errno == EINTR) {
  }
  if (!WIFEXITED(status) || WEXITSTATUS(status) != 0)
    throw VmError(argv[0] + " failed");
  while (!out.empty() && out.back() == '\n')
    out.pop_back();
  return out;
}

} // namespace stap::remote
