// Pass 2, after elide_unused.h: a probe whose body is left with nothing
// to do (no statements, or only empty blocks and `;`) is dropped with
// SystemTap 4.8's warning "Probe 'NAME' has been elided" (NAME the first
// keyword of the resolved point: 'begin', 'timer', 'kernel'), one per
// resolved point, at the `probe` keyword. With none left, pass 2 then
// fails with "no probes found", as in 4.8. Not with -u, nor for -l/-L.
#pragma once
#include "passes/program.h"
#include "util/diag.h"

namespace stap {

void elide_empty_probes(Program &program, Diagnostics &diag);

} // namespace stap
