// Pass 2: SystemTap's warnings about the user script's locals (tapset code
// is not checked): "Eliding assignment to 'x'" at each `x = ...` of a local
// that is never read, and "never-assigned local variable 'y' (similar:
// ...)" at the first read of one that is never written, with the five
// nearest names in scope. Not given with -u, like SystemTap; -w drops them,
// -W makes them errors (Diagnostics).
#pragma once
#include "passes/program.h"
#include "util/diag.h"

namespace stap {

void warn_unused_locals(Program &program, Diagnostics &diag);

} // namespace stap
