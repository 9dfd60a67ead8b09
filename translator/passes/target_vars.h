// Pass 2b: the target variables a probe's context offers. Without
// debuginfo that is `$return` in function return probes (a long: the
// return register); it is typed here, and used anywhere else it is an
// error. Other $variables are left for pass 3 to report as unsupported.
#pragma once
#include "passes/program.h"
#include "util/diag.h"

namespace stap {

void resolve_target_vars(Program &program, Diagnostics &diag);

} // namespace stap
