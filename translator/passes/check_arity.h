// Pass 2, after symbol resolution: a global is either a scalar (or
// statistic) or an array with one number of indexes, in every use, as in
// SystemTap 4.8 ("inconsistent arity"). A sized declaration (`a[10]`) makes
// it an array. `delete a` fits either.
#pragma once
#include "passes/program.h"
#include "util/diag.h"

namespace stap {

void check_arity(Program &program, Diagnostics &diag);

} // namespace stap
