// Pass 2 (after symbol resolution): target variables. Each `$var` of a
// probe body must be one its probe point provides
// (probes::find_context_var; without debuginfo that is `$return` in
// function return probes, a long: the return register); it is typed here.
// Any other `$var`, and any `$var` in a function, is an error with what the
// point does provide. @defined and constant folding ran before, so the
// ones in branches that cannot run are gone.
#pragma once
#include "passes/program.h"
#include "util/diag.h"

namespace stap {

void resolve_target_vars(Program &program, Diagnostics &diag);

} // namespace stap
