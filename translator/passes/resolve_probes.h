// Pass 2a: binds every probe point of the user script to a probe family.
#pragma once
#include "passes/program.h"
#include "util/diag.h"

namespace stap {

// Appends to program.probes; reports points no family accepts.
void resolve_probes(Program &program, Diagnostics &diag);

} // namespace stap
