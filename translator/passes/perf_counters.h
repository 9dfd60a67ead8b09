// @perf("NAME") and the perf counters it reads (perf....counter("NAME"),
// probes/perf.cpp), with SystemTap 4.8's verdicts (checked with its -p2
// and -p3):
//   pass 2 (resolve_perf_counters): each task-bound perf probe gets its
//     slot in a task's events (`.slot`, runtime/probes/perf_task.c); two
//     counters of one name are an error ("duplicate counter name"); @perf
//     takes one literal string (4.8: a parse error), and in a process
//     probe's body or a function, a counter of that name must exist
//     ("perf counter 'NAME' not defined");
//   pass 3 (check_perf_reads): @perf in the body of any other probe
//     (begin, timer, process.begin...) is an error, as 4.8 finds it only
//     when translating ("cannot translate general @perf expression"): it
//     reads the counter of the task a process("PATH").function(...),
//     .statement, .mark or .return probe stopped.
#pragma once
#include "passes/program.h"
#include "util/diag.h"

namespace stap {

void resolve_perf_counters(Program &program, Diagnostics &diag);
void check_perf_reads(Program &program, Diagnostics &diag);

} // namespace stap
