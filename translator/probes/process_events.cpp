// Process life events (runtime/probes/process_events.c):
//   process.begin, process.end, process.thread.begin, process.thread.end
//   process("PATH").begin ..., process(PID).begin ...
// Reached through the uprobe family's "process" root. Without a path or PID
// every process is seen (with -c or -x, the target's process tree only, as
// in SystemTap); a path selects processes running that program, a PID
// that process.
#include "codegen/emitter.h"
#include "codegen/module_writer.h"
#include "probes/family.h"
#include "probes/user_target.h"

namespace stap::probes {
namespace {

class ProcessEventsFamily final : public ProbeFamily {
public:
  std::vector<std::string_view> roots() const override { return {}; }
  std::vector<PointShape> shapes() const override { return {}; }

  bool resolve(const ResolveEnv &env, ast::ProbeDecl &decl, ast::ProbePoint &point,
               std::vector<ResolvedProbe> &out, Diagnostics &diag) const override {
    const auto &cs = point.components;
    size_t i = 1;
    bool thread = cs[i].functor == "thread";
    if (thread)
      ++i;
    if (i >= cs.size() || (cs[i].functor != "begin" && cs[i].functor != "end") || cs[i].arg) {
      diag.error(i < cs.size() ? cs[i].loc : cs.back().loc,
                 "expected begin or end in '" + probe_point_string(point) + "'");
      return false;
    }
    bool begin = cs[i].functor == "begin";
    if (i + 1 < cs.size()) {
      diag.error(cs[i + 1].loc, "unexpected '" + cs[i + 1].functor + "' in '" +
                                    probe_point_string(point) + "'");
      return false;
    }
    std::string path = "NULL";
    int64_t pid = 0;
    ast::ProbePoint *p = &point;
    if (const ast::StringLit *s = string_arg(cs[0])) {
      const Sysroot *sysroot = env.user && env.user->sysroot ? env.user->sysroot() : nullptr;
      auto f = sysroot ? sysroot->resolve(s->value) : std::nullopt;
      if (!f) {
        diag.error(s->loc, "no such program: '" + s->value + "'");
        return false;
      }
      path = codegen::c_string_literal(f->target_path);
      p = with_string_arg(point, 0, f->target_path);
    } else if (const ast::NumberLit *n = number_arg(cs[0])) {
      if (n->value <= 0) {
        diag.error(n->loc, "process(PID) needs a positive process id");
        return false;
      }
      pid = n->value;
    }
    ResolvedProbe r = make_resolved(decl, *p, this);
    r.c_fields = std::string(".kind = ") +
                 (thread ? (begin ? "STP_PROC_THREAD_BEGIN" : "STP_PROC_THREAD_END")
                         : (begin ? "STP_PROC_BEGIN" : "STP_PROC_END")) +
                 ", .path = " + path + ", .pid = " + std::to_string(pid);
    out.push_back(std::move(r));
    return true;
  }

  void emit(codegen::ModuleWriter &w,
            const std::vector<const ResolvedProbe *> &probes) const override {
    w.emit_probe_table("PROC", "struct stp_proc_probe", probes);
  }
};

} // namespace

const ProbeFamily &process_events_family() {
  static const ProcessEventsFamily family;
  return family;
}

} // namespace stap::probes
