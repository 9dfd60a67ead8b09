// What the perf family shares with timer.profile, whose points are
// cpu-clock perf events in the same runtime table (runtime/probes/perf.h).
#pragma once
#include "probes/family.h"

#include <cstdint>
#include <string>

namespace stap::probes {

const ProbeFamily &perf_family();
// The C initializer fields of one struct stp_perf_probe: `config` and
// `period` are C expressions.
std::string perf_c_fields(int64_t type, const std::string &config, const std::string &period,
                          bool freq);
// Whether `probe` (a perf one) is bound to tasks (.process, .counter).
bool perf_task_bound(const ResolvedProbe &probe);
// The NAME of a perf ... .counter("NAME") probe, else "".
std::string perf_counter_name(const ResolvedProbe &probe);

} // namespace stap::probes
