// One machine of --remote=ssh://: the OpenSSH client commands stap runs
// against it. All of them share one connection (ssh's ControlMaster, a
// socket in a private local directory), so a host is authenticated once.
// $STAP_SSH_OPTIONS adds options that both ssh and scp take (-F FILE,
// -i KEY, -o NAME=VALUE) before each command's own.
#pragma once

#include "remote/ssh_url.h"

#include <string>
#include <sys/types.h>
#include <vector>

namespace stap::remote {

class SshHost {
public:
  // `control_socket`: a path in a directory only this user can enter.
  SshHost(SshUrl url, std::string control_socket);
  ~SshHost();
  SshHost(const SshHost &) = delete;
  SshHost &operator=(const SshHost &) = delete;

  // Asks the host for its kernel release (uname -r) and machine (uname -m),
  // and makes a work directory there (mktemp -d). Opens the connection.
  bool probe(std::string &error);
  // Copies local files into the work directory with scp.
  bool copy(const std::vector<std::string> &files, std::string &error);
  // Starts `command` (a sh command line) on the host in the work
  // directory, its stdout and stderr on the returned pipes; stdin is
  // /dev/null. The ssh process is in a process group of its own: a
  // terminal's Ctrl-C reaches stap, which decides what the host gets.
  pid_t start(const std::string &command, int &out_fd, int &err_fd) const;
  // Sends `sig` to the process whose pid `command` wrote to ./pid.
  void signal_started(int sig) const;
  // Removes the work directory and closes the connection.
  void close();

  const SshUrl &url() const { return url_; }
  const std::string &release() const { return release_; }
  const std::string &arch() const { return arch_; } // x86_64 | i386
  const std::string &dir() const { return dir_; }

private:
  std::vector<std::string> ssh_argv(const std::string &command) const;
  std::vector<std::string> common_options() const;

  SshUrl url_;
  std::string control_;
  std::string release_, arch_, dir_;
  bool open_ = false;
};

// The architecture stap builds for from `uname -m`: "x86_64", "i386", or ""
// for a machine it does not support.
std::string arch_of_machine(const std::string &machine);

} // namespace stap::remote
