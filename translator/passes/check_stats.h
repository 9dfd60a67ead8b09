// Pass 2, after type inference: the rules of statistics. Each statistics
// global gets its one histogram shape and @variance bit shift
// (GlobalDecl::stat) from its `@hist_*` and `@variance` uses, which must be
// literal and agree; statistics must be globals.
#pragma once
#include "passes/program.h"
#include "util/diag.h"

namespace stap {

void check_stats(Program &program, Diagnostics &diag);

} // namespace stap
