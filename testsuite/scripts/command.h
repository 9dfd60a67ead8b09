// Runs a shell command line and captures what it printed.
#pragma once
#include <string>

#include "util/shell.h"

namespace stap::testing {

struct CommandResult {
  std::string out, err;
  int status = -1;
};

// Runs `cmdline` with /bin/sh in `cwd`, stdin from /dev/null.
CommandResult run_command(const std::string &cmdline, const std::string &cwd);
using stap::shell_quote;

} // namespace stap::testing
