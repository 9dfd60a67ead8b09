// Probe kinds the target kernel must be built with: a pass-2 error that
// names the missing CONFIG_ option, instead of a compile error at pass 4
// or a refusal at pass 5.
#pragma once
#include "driver/target.h"
#include "passes/program.h"
#include "util/diag.h"

namespace stap {

// Nothing is checked when the target's .config is unknown (no build tree).
void check_kernel_config(const Program &program, const Target &target, Diagnostics &diag);

} // namespace stap
