// Pass 2b: types every expression of the probe bodies and checks calls.
// (The walking skeleton's subset: literals, arithmetic, comparisons and
// the built-in functions; the full inference comes with the tapsets.)
#pragma once
#include "passes/program.h"
#include "util/diag.h"

namespace stap {

void typecheck(Program &program, Diagnostics &diag);

} // namespace stap
