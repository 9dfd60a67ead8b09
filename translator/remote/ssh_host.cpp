#include "remote/ssh_host.h"

#include "util/shell.h"
#include "util/spawn_child.h"

#include <cstdlib>
#include <sstream>

namespace stap::remote {
namespace {

std::vector<std::string> env_options() {
  std::vector<std::string> opts;
  const char *env = std::getenv("STAP_SSH_OPTIONS");
  std::istringstream in(env ? env : "");
  std::string word;
  while (in >> word)
    opts.push_back(word);
  return opts;
}

// Runs argv to completion in a process group of its own (see start());
// returns its status and stdout, its stderr in `err`.
int run_quiet(const std::vector<std::string> &argv, std::string &out, std::string &err) {
  return run_child_captured(argv, kChildOwnGroup, out, err);
}

std::string trimmed(std::string s) {
  while (!s.empty() && (s.back() == '\n' || s.back() == '\r' || s.back() == ' '))
    s.pop_back();
  return s;
}

} // namespace

std::string arch_of_machine(const std::string &machine) {
  if (machine == "x86_64")
    return "x86_64";
  if (machine.size() == 4 && machine[0] == 'i' && machine.substr(2) == "86")
    return "i386";
  return "";
}

SshHost::SshHost(SshUrl url, std::string control_socket)
    : url_(std::move(url)), control_(std::move(control_socket)) {}

SshHost::~SshHost() { close(); }

std::vector<std::string> SshHost::common_options() const {
  std::vector<std::string> o = env_options();
  // The first command opens the connection and leaves it to a background
  // master for the others; it ends at close() (or 60 s after the last use,
  // should stap be killed).
  o.insert(o.end(), {"-o", "ControlMaster=auto", "-o", "ControlPath=" + control_, "-o",
                     "ControlPersist=60"});
  return o;
}

std::vector<std::string> SshHost::ssh_argv(const std::string &command) const {
  std::vector<std::string> a = {"ssh"};
  for (auto &o : common_options())
    a.push_back(o);
  if (!url_.port.empty())
    a.insert(a.end(), {"-p", url_.port});
  if (!url_.user.empty())
    a.insert(a.end(), {"-l", url_.user});
  a.insert(a.end(), {"-n", url_.host, command});
  return a;
}

bool SshHost::probe(std::string &error) {
  std::string out, err;
  int rc = run_quiet(ssh_argv("uname -r && uname -m && mktemp -d /tmp/stap.XXXXXX"), out, err);
  open_ = true;
  std::istringstream lines(out);
  std::string machine;
  std::getline(lines, release_);
  std::getline(lines, machine);
  std::getline(lines, dir_);
  if (rc != 0 || release_.empty() || dir_.rfind("/tmp/stap.", 0) != 0) {
    error = "--remote=" + url_.url + ": " +
            (rc == 255 ? "ssh could not connect"
                       : "the host did not answer uname -r, uname -m and mktemp -d") +
            (trimmed(err).empty() ? "" : ": " + trimmed(err));
    dir_.clear();
    return false;
  }
  arch_ = arch_of_machine(machine);
  if (arch_.empty()) {
    error = "--remote=" + url_.url + ": the host is a " + machine +
            " machine; stap builds modules for x86_64 and i386 kernels";
    return false;
  }
  return true;
}

bool SshHost::copy(const std::vector<std::string> &files, std::string &error) {
  std::vector<std::string> a = {"scp", "-q"};
  for (auto &o : common_options())
    a.push_back(o);
  if (!url_.port.empty())
    a.insert(a.end(), {"-P", url_.port});
  for (const auto &f : files)
    a.push_back(f);
  std::string host = url_.host.find(':') != std::string::npos ? "[" + url_.host + "]" : url_.host;
  a.push_back((url_.user.empty() ? "" : url_.user + "@") + host + ":" + dir_ + "/");
  std::string out, err;
  if (run_quiet(a, out, err) == 0)
    return true;
  error = "--remote=" + url_.url + ": scp to " + dir_ + " failed" +
          (trimmed(err).empty() ? "" : ": " + trimmed(err));
  return false;
}

pid_t SshHost::start(const std::string &command, int &out_fd, int &err_fd) const {
  return spawn_child_piped(ssh_argv("cd " + shell_quote(dir_) + " && " + command), kChildOwnGroup,
                           out_fd, err_fd);
}

void SshHost::signal_started(int sig) const {
  std::string out, err;
  run_quiet(ssh_argv("kill -" + std::to_string(sig) + " \"$(cat " + shell_quote(dir_ + "/pid") +
                     ")\" 2>/dev/null"),
            out, err);
}

void SshHost::close() {
  if (!open_)
    return;
  open_ = false;
  std::string out, err;
  if (!dir_.empty())
    run_quiet(ssh_argv("rm -rf " + shell_quote(dir_)), out, err);
  std::vector<std::string> exit = {"ssh"};
  for (auto &o : common_options())
    exit.push_back(o);
  exit.insert(exit.end(), {"-O", "exit", url_.host});
  run_quiet(exit, out, err);
}

} // namespace stap::remote
