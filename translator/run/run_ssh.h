// Pass 5 on machines reached with ssh: --remote=ssh://[USER@]HOST[:PORT],
// repeatable. Each host gets its kernel's module and our staprun (the
// remote's own staprun may be SystemTap's, which speaks another protocol)
// in a temporary directory, and runs them; the hosts run at the same time.
#pragma once
#include "driver/options.h"
#include "remote/ssh_host.h"
#include "util/diag.h"

#include <string>
#include <vector>

namespace stap::run {

struct SshRun {
  remote::SshHost *host;
  std::string ko; // the module built for that host's kernel
};

// Copies, runs and waits. Each host's stdout and stderr come through as
// they arrive, each line prefixed with "N: " (N: the host's index among the
// --remote options, from 0) under --remote-prefix. SIGINT, SIGTERM or
// SIGHUP to stap (a terminal's Ctrl-C) stops every host's staprun with
// SIGINT, so their end probes run. Returns the first host's non-zero
// status, in --remote order, or 0.
int run_ssh(const Options &opts, const std::vector<SshRun> &runs, Diagnostics &diag);

} // namespace stap::run
