// The kernel a session builds for and runs on.
#pragma once
#include "driver/options.h"
#include "util/diag.h"

#include <map>
#include <string>

namespace stap {

struct Target {
  std::string release;   // 6.1.0-56-amd64
  std::string build_dir; // /lib/modules/RELEASE/build
  std::string arch;      // x86_64 | i386
  std::map<std::string, std::string> config; // the kernel's .config
};

// From -r, --remote=qemu://RELEASE, or the running kernel. Reports
// conflicting or missing kernels to `diag`.
bool resolve_target(const Options &opts, Target &target, Diagnostics &diag);

} // namespace stap
