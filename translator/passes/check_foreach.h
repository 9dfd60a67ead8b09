// Pass 2: the array a foreach iterates may not change inside its body, as
// in SystemTap 4.8: an element stored, incremented, aggregated into or
// deleted ("variable 'a' modified during 'foreach' iteration", at the
// array's name), or a called function that does so, directly or through
// its callees ("function call modifies var 'a' during 'foreach'
// iteration", at the call). Deleting the whole array, reading it, and
// changing other arrays are allowed (4.8's verdicts, checked with
// Debian's stap 4.8 -p2).
#pragma once
#include "passes/program.h"
#include "util/diag.h"

namespace stap {

void check_foreach_modifications(Program &program, Diagnostics &diag);

} // namespace stap
