// Pass 5: runs the built module with staprun, here or in a VM.
#pragma once
#include "driver/options.h"

#include <string>

namespace stap::run {

// Which of `stap --remote ...`'s hosts a session runs on: remote_id() and
// remote_uri() in the script (-1 and "" when run here).
struct RemoteInstance {
  int id = -1;
  std::string uri;
};

// The staprun arguments (after the program name) for `opts` and `ko`.
std::vector<std::string> staprun_args(const Options &opts, const std::string &ko,
                                      const RemoteInstance &remote = {});

// A program installed beside `stap` (build/bin, or the install's bin).
std::string tool_path(const std::string &name);

// Runs staprun on this machine; returns its exit status.
int run_local(const Options &opts, const std::string &ko);

} // namespace stap::run
