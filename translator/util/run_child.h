// Runs a program (no shell) to completion and captures what it prints.
#pragma once
#include <string>
#include <vector>

namespace stap {

struct ChildResult {
  int status = -1;    // the exit status; -1 if it could not run or was killed
  std::string output; // its stdout (and stderr, when merged)
};

// argv[0] is looked up in PATH. With `merge_stderr` the child's stderr goes
// into `output` too; else it is inherited. `env` ("NAME=VALUE" each), when
// given, replaces the environment; `cwd`, when not empty, is its directory.
ChildResult run_child(const std::vector<std::string> &argv, bool merge_stderr,
                      const std::vector<std::string> *env = nullptr,
                      const std::string &cwd = "");

} // namespace stap
