// Pass 5 in a disposable VM: --remote=qemu://[RELEASE].
#pragma once
#include "driver/options.h"
#include "driver/target.h"
#include "util/diag.h"

#include <string>

namespace stap::run {

// Boots the target kernel, runs staprun with the module in it, and passes
// the guest's stdout, stderr and exit status back as if it ran here.
int run_remote(const Options &opts, const Target &target, const std::string &ko,
               Diagnostics &diag);

} // namespace stap::run
