#include "run/run.h"
#include "util/data_dir.h"

#include <cerrno>
#include <csignal>
#include <cstdio>
#include <cstring>
#include <sys/wait.h>
#include <unistd.h>
#include <vector>

namespace stap::run {

std::vector<std::string> staprun_args(const Options &opts, const std::string &ko,
                                      const RemoteInstance &remote) {
  std::vector<std::string> a;
  for (int i = 0; i < opts.verbose; ++i)
    a.push_back("-v");
  if (opts.suppress_warnings)
    a.push_back("-w");
  if (!opts.target_command.empty())
    a.insert(a.end(), {"-c", opts.target_command});
  if (opts.target_pid)
    a.insert(a.end(), {"-x", std::to_string(opts.target_pid)});
  if (!opts.output_file.empty())
    a.insert(a.end(), {"-o", opts.output_file});
  if (opts.buffer_mb)
    a.insert(a.end(), {"-s", std::to_string(opts.buffer_mb)});
  if (!opts.file_switch.empty())
    a.insert(a.end(), {"-S", opts.file_switch});
  if (opts.timeout_s)
    a.insert(a.end(), {"-T", std::to_string(opts.timeout_s)});
  a.push_back(ko);
  for (const auto &g : opts.global_sets)
    a.push_back(g);
  if (remote.id >= 0)
    a.insert(a.end(), {"_stp_remote_id=" + std::to_string(remote.id),
                       "_stp_remote_uri=" + remote.uri});
  return a;
}

std::string tool_path(const std::string &name) { return self_dir() + "/" + name; }

static volatile pid_t g_staprun_pid = 0;

// SIGINT from a terminal reaches staprun directly (same process group);
// a SIGTERM/SIGHUP/SIGINT sent to stap alone is passed on, so staprun
// always ends the session cleanly and unloads the module.
static void forward_signal(int sig) {
  if (g_staprun_pid > 0)
    kill(g_staprun_pid, sig);
}

int run_local(const Options &opts, const std::string &ko) {
  std::string prog = tool_path("staprun");
  std::vector<std::string> args = staprun_args(opts, ko);
  std::vector<char *> argv;
  argv.push_back(const_cast<char *>(prog.c_str()));
  for (auto &a : args)
    argv.push_back(const_cast<char *>(a.c_str()));
  argv.push_back(nullptr);
  pid_t pid = fork();
  if (pid == 0) {
    for (int sig : {SIGINT, SIGTERM, SIGHUP})
      signal(sig, SIG_DFL);
    execv(prog.c_str(), argv.data());
    std::fprintf(stderr, "stap: cannot run %s: %s\n", prog.c_str(), std::strerror(errno));
    _exit(127);
  }
  if (pid < 0)
    return 1;
  g_staprun_pid = pid;
  struct sigaction sa {};
  sa.sa_handler = forward_signal;
  for (int sig : {SIGINT, SIGTERM, SIGHUP})
    sigaction(sig, &sa, nullptr);
  int status = 0;
  while (waitpid(pid, &status, 0) < 0 && errno == EINTR) {
  }
  return WIFEXITED(status) ? WEXITSTATUS(status) : 1;
}

} // namespace stap::run
