// Runs a shell command line and captures what it printed.
#pragma once
#include <string>

namespace stap::testing {

struct CommandResult {
  std::string out, err;
  int status = -1;
};

// Runs `cmdline` with /bin/sh in `cwd`, stdin from /dev/null.
CommandResult run_command(const std::string &cmdline, const std::string &cwd);
// `s` single-quoted for the shell.
std::string shell_quote(const std::string &s);

} // namespace stap::testing
