// begin, end, error and never: probes run by the session itself rather than
// by a kernel event. begin(N)/end(N)/error(N) order by N (default 0); never
// is accepted and never runs.
#include "codegen/module_writer.h"
#include "probes/family.h"

#include <algorithm>

namespace stap::probes {
namespace {

class BeginEndFamily final : public ProbeFamily {
public:
  std::string_view probe_type(const ResolvedProbe &) const override {
    return "begin_end";
  }
  std::vector<std::string_view> roots() const override {
    return {"begin", "end", "error", "never"};
  }

  std::vector<PointShape> shapes() const override {
    std::vector<PointShape> out;
    for (const char *r : {"begin", "end", "error"}) {
      out.push_back({{r, false}});
      out.push_back({{r, true}}); // its priority
    }
    out.push_back({{"never", false}});
    return out;
  }

  bool resolve(const ResolveEnv &env, ast::ProbeDecl &decl, ast::ProbePoint &point, std::vector<ResolvedProbe> &out,
               Diagnostics &diag) const override {
    const auto &c0 = point.components[0];
    if (point.components.size() > 1) {
      diag.error(point.components[1].loc,
                 "probe point '" + c0.functor + "' takes no further component");
      return false;
    }
    ResolvedProbe r = make_resolved(decl, point, this);
    if (c0.arg) {
      auto *n = dynamic_cast<ast::NumberLit *>(c0.arg);
      if (!n || c0.functor == "never") {
        diag.error(c0.arg->loc, "probe point '" + c0.functor + "' takes " +
                                    (c0.functor == "never" ? "no argument"
                                                           : "only a number (its priority)"));
        return false;
      }
      r.priority = n->value;
    }
    out.push_back(std::move(r));
    return true;
  }

  void emit(codegen::ModuleWriter &w,
            const std::vector<const ResolvedProbe *> &probes) const override {
    for (std::string_view kind : {"begin", "end", "error"}) {
      std::vector<const ResolvedProbe *> list;
      for (const ResolvedProbe *p : probes)
        if (p->point->components[0].functor == kind)
          list.push_back(p);
      // Lower priorities run first; equal ones in script order.
      std::stable_sort(list.begin(), list.end(),
                       [](auto *a, auto *b) { return a->priority < b->priority; });
      if (list.empty())
        continue;
      std::string array = "stp_" + std::string(kind) + "_probes";
      std::vector<std::string> names;
      for (const ResolvedProbe *p : list)
        names.push_back("&" + w.probe_descriptor(*p));
      w.emit_pointer_array("const struct stp_probe *const", array, names);
      w.set_module_field(std::string(kind) + "_probes", array);
      w.set_module_field("n_" + std::string(kind), std::to_string(list.size()));
    }
  }
};

} // namespace

const ProbeFamily &begin_end_family() {
  static const BeginEndFamily family;
  return family;
}

} // namespace stap::probes
