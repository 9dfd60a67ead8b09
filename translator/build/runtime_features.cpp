#include "build/runtime_features.h"

namespace stap::build {
namespace {

// A part and the identifiers (or prefixes) C that uses it names: its
// probe kind's slot in stp_module.kinds, the functions and types its
// header declares. A part missed here is not silent: its declarations are
// left out with it, and the C does not compile.
struct Part {
  const char *define;
  std::vector<const char *> names;
};

const std::vector<Part> &parts() {
  static const std::vector<Part> table = {
      {"STP_FEATURE_MAPS", {"stp_map_", "struct stp_map"}},
      {"STP_FEATURE_STATS", {"stp_stat_", "struct stp_stat", "stp_hist_"}},
      {"STP_FEATURE_REGEX", {"stp_regex_match"}},
      {"STP_FEATURE_MODSECT", {"stp_module_section"}},
      {"STP_FEATURE_USER",
       {".need_vma_tracker = true", "stp_vma_", "stp_uobject_bias", "stp_ustack_", "stp_usym_", "stp_kstack_",
        "stp_ksym_", "stp_syms_print", "stp_callers"}},
      {"STP_FEATURE_KPROBE", {"STP_KIND_KPROBE"}},
      {"STP_FEATURE_TRACEPOINT", {"STP_KIND_TRACEPOINT", "stp_tracepoint_fire"}},
      {"STP_FEATURE_UPROBE", {"STP_KIND_UPROBE", "stp_sdt_", "stp_uprobe_"}},
      {"STP_FEATURE_PROC", {"STP_KIND_PROC", "stp_psys_"}},
      {"STP_FEATURE_PERF", {"STP_KIND_PERF"}},
      {"STP_FEATURE_PERF_TASK", {"STP_PERF_BOUND_", "stp_perf_task_"}},
      {"STP_FEATURE_TIMER", {"STP_KIND_TIMER"}},
      {"STP_FEATURE_PROCFS", {"STP_KIND_PROCFS", "struct stp_procfs_value"}},
      {"STP_FEATURE_NETFILTER", {"STP_KIND_NETFILTER", "STP_NF_ARGS"}},
      {"STP_FEATURE_HWBKPT", {"STP_KIND_HWBKPT"}},
  };
  return table;
}

} // namespace

std::vector<std::string> runtime_features(const std::string &c_source) {
  std::vector<std::string> defines = {"STP_FEATURES"};
  for (const Part &p : parts())
    for (const char *name : p.names)
      if (c_source.find(name) != std::string::npos) {
        defines.push_back(p.define);
        break;
      }
  return defines;
}

} // namespace stap::build
