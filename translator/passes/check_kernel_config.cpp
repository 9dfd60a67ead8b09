#include "passes/check_kernel_config.h"

#include <set>

namespace stap {
namespace {

bool starts_with(const std::string &s, const char *prefix) { return s.rfind(prefix, 0) == 0; }

// The option a resolved point's kind needs, by its canonical form; "" if none.
const char *needed_option(const probes::ResolvedProbe &p) {
  const std::string &pp = p.pp;
  if (starts_with(pp, "perf."))
    return "CONFIG_PERF_EVENTS";
  if (starts_with(pp, "kernel.trace("))
    return "CONFIG_TRACEPOINTS";
  if (starts_with(pp, "process(") &&
      (pp.find(".function(") != std::string::npos || pp.find(".mark(") != std::string::npos ||
       pp.find(".statement(") != std::string::npos))
    return "CONFIG_UPROBES";
  if (starts_with(pp, "kernel.function(") || starts_with(pp, "module(") ||
      starts_with(pp, "kprobe.") || starts_with(pp, "kernel.statement("))
    return p.is_return ? "CONFIG_KRETPROBES" : "CONFIG_KPROBES";
  return "";
}

} // namespace

void check_kernel_config(const Program &program, const Target &target, Diagnostics &diag) {
  if (target.config.empty())
    return;
  std::set<std::string> reported;
  for (const probes::ResolvedProbe &p : program.probes) {
    std::string option = needed_option(p);
    if (option.empty() || target.config.count(option) || !reported.insert(option).second)
      continue;
    diag.error(p.point ? p.point->loc : SourceLoc{},
               "probe point '" + p.pp + "' needs a kernel built with " + option +
                   "=y, and kernel " + target.release + " (" + target.build_dir +
                   "/.config) has it off: use a kernel that enables it (-r RELEASE or "
                   "--remote)");
  }
}

} // namespace stap
