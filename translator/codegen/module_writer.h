// The C file of one module under construction: handler functions, probe
// descriptors, the tables probe families emit, and the final
// `stp_module` description the runtime reads.
#pragma once
#include "codegen/emitter.h"
#include "probes/family.h"

#include <functional>
#include <map>
#include <string>
#include <vector>

namespace stap::codegen {

class ModuleWriter {
public:
  Emitter &out() { return out_; }

  // Emits `static const struct stp_probe NAME = {...}` for `p` once and
  // returns NAME.
  std::string probe_descriptor(const probes::ResolvedProbe &p);
  // `static TYPE NAME[] = { a, b, };`
  void emit_pointer_array(const std::string &type, const std::string &name,
                          const std::vector<std::string> &elems);
  // `static TYPE NAME[] = { { a }, { b }, };` (writable: the runtime keeps
  // its per-probe state there)
  void emit_struct_array(const std::string &type, const std::string &name,
                         const std::vector<std::string> &initializers);
  // The table of the runtime probe kind `kind` (an STP_KIND_ id of
  // runtime/probes/kinds.h, e.g. "KPROBE"), whose struct `type` starts
  // with `.probe`: `static TYPE stp_kind_ID[] = { { .probe = &desc,
  // <c_fields> }, ... };`, which the module's `kinds[STP_KIND_ID]` points
  // at. A probe with @entry values also gets `.entry = &entry_desc,
  // .entry_data_size = ...`, and each probe the fields `more(probe)`
  // returns (if given). Once per kind.
  void emit_probe_table(
      const std::string &kind, const std::string &type,
      const std::vector<const probes::ResolvedProbe *> &probes,
      const std::function<std::string(const probes::ResolvedProbe &)> &more = {});
  // A field of `struct stp_module_desc` (see runtime/stp_runtime.h).
  void set_module_field(const std::string &field, const std::string &value);
  void emit_module_desc();

private:
  Emitter out_;
  std::map<const probes::ResolvedProbe *, std::string> descriptors_;
  std::map<std::string, std::string> module_fields_;
  std::map<std::string, std::string> kinds_; // STP_KIND_ id -> "{ array, n }"
};

} // namespace stap::codegen
