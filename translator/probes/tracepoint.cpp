// kernel.trace("NAME"): probes on kernel tracepoints. Only the raw_syscalls
// tracepoints are supported: sys_enter (every system call's entry) and
// sys_exit (its return), which syscall_any and syscall_any.return use.
// Their probe functions take (struct pt_regs *regs, long id_or_ret); the
// runtime (runtime/probes/tracepoints.c) finds the tracepoint by name and
// hooks it. The call's number and result are read from the task's saved
// registers (tapsets/syscall_args.stp), so no $variables are provided.
#include "codegen/emitter.h"
#include "codegen/module_writer.h"
#include "probes/family.h"

#include <fnmatch.h>

namespace stap::probes {
namespace {

const char *const supported[] = {"sys_enter", "sys_exit"};

class TracepointFamily final : public ProbeFamily {
public:
  // Reached through the kprobe family's "kernel" root (kernel.trace).
  std::vector<std::string_view> roots() const override { return {}; }
  std::vector<PointShape> shapes() const override { return {}; }

  bool resolve(const ResolveEnv &env, ast::ProbeDecl &decl, ast::ProbePoint &point, std::vector<ResolvedProbe> &out,
               Diagnostics &diag) const override {
    const auto &cs = point.components;
    const ast::StringLit *name = cs.size() > 1 ? string_arg(cs[1]) : nullptr;
    if (!name) {
      diag.error(cs.size() > 1 ? cs[1].loc : cs[0].loc,
                 "expected trace(\"NAME\") in '" + probe_point_string(point) + "'");
      return false;
    }
    if (cs.size() > 2) {
      diag.error(cs[2].loc, "unexpected '" + cs[2].functor + "' in '" +
                                probe_point_string(point) + "'");
      return false;
    }
    bool any = false;
    for (const char *tp : supported) {
      if (fnmatch(name->value.c_str(), tp, 0) != 0)
        continue;
      ast::ProbePoint *p = &point;
      if (name->value != tp)
        p = with_name(point, tp);
      ResolvedProbe r = make_resolved(decl, *p, this);
      r.c_fields = std::string(".name = ") + codegen::c_string_literal(tp);
      out.push_back(std::move(r));
      any = true;
    }
    if (!any && !point.optional)
      diag.error(name->loc, "tracepoint '" + name->value +
                                "' is not supported (only sys_enter and sys_exit)");
    return any;
  }

  void emit(codegen::ModuleWriter &w,
            const std::vector<const ResolvedProbe *> &probes) const override {
    w.emit_probe_table("struct stp_tracepoint", "tracepoints", probes);
  }

private:
  static ast::ProbePoint *with_name(const ast::ProbePoint &point, const std::string &name) {
    static std::vector<std::unique_ptr<ast::ProbePoint>> made;
    static std::vector<std::unique_ptr<ast::StringLit>> names;
    auto p = std::make_unique<ast::ProbePoint>(point);
    auto s = std::make_unique<ast::StringLit>(*string_arg(point.components[1]));
    s->value = name;
    p->components[1].arg = s.get();
    names.push_back(std::move(s));
    made.push_back(std::move(p));
    return made.back().get();
  }
};

} // namespace

const ProbeFamily &tracepoint_family() {
  static const TracepointFamily family;
  return family;
}

} // namespace stap::probes
