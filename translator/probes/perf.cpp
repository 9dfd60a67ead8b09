// perf.type(T).config(C)[.sample(N)|.hz(N)]: a kernel perf event on
// every CPU (runtime/probes/perf.c), firing every N events (default
// 1000000, as SystemTap 4.8) or N times a second. perf.sw.NAME,
// perf.hw.NAME and perf.hw_cache.CACHE.OP.RESULT are aliases of it
// (tapsets/perf.stp). timer.profile's points are perf events too
// (timer.cpp hands them to this family's table).
// Not supported: .process("PATH") and .counter("NAME") (per-task
// counters read with @perf), which need task-bound events.
#include "codegen/module_writer.h"
#include "probes/family.h"
#include "probes/perf.h"

namespace stap::probes {
namespace {

class PerfFamily final : public ProbeFamily {
public:
  std::string_view probe_type(const ResolvedProbe &) const override {
    return "perf_event"; // timer.profile too, as in 4.8
  }
  std::vector<std::string_view> roots() const override { return {"perf"}; }

  std::vector<PointShape> shapes() const override {
    PointShape head = {{"perf", false}, {"type", true}, {"config", true}};
    std::vector<PointShape> out = {head};
    for (const char *tail : {"sample", "hz", "process", "counter"}) {
      out.push_back(head);
      out.back().push_back({tail, true});
    }
    return out;
  }

  bool resolve(const ResolveEnv &, ast::ProbeDecl &decl, ast::ProbePoint &point,
               std::vector<ResolvedProbe> &out, Diagnostics &diag) const override {
    const auto &cs = point.components;
    if (cs.size() < 3 || cs[1].functor != "type" || cs[2].functor != "config") {
      diag.error(cs.size() > 1 ? cs[1].loc : cs[0].loc,
                 "expected perf.type(T).config(C) in '" + probe_point_string(point) + "'");
      return false;
    }
    const ast::NumberLit *type = number_arg(cs[1]), *config = number_arg(cs[2]);
    if (!type || type->value < 0 || type->value > 0xffffffffLL) {
      diag.error(cs[1].loc, "perf.type needs a number (perf_event_attr.type)");
      return false;
    }
    if (!config || config->value < 0) {
      diag.error(cs[2].loc, "perf.config needs a non-negative number (perf_event_attr.config)");
      return false;
    }
    int64_t period = 1000000;
    bool freq = false;
    if (cs.size() == 4 && (cs[3].functor == "sample" || cs[3].functor == "hz")) {
      const ast::NumberLit *n = number_arg(cs[3]);
      if (!n || n->value <= 0) {
        diag.error(cs[3].loc, "perf ." + cs[3].functor + " needs a positive number");
        return false;
      }
      period = n->value;
      freq = cs[3].functor == "hz";
    } else if (cs.size() > 3) {
      bool known = cs[3].functor == "process" || cs[3].functor == "counter";
      diag.error(cs[3].loc, known ? "perf ." + cs[3].functor +
                                        "(...) (a per-task counter) is not supported"
                                  : "unexpected '" + cs[3].functor + "' in '" +
                                        probe_point_string(point) + "'");
      return false;
    }
    ResolvedProbe r = make_resolved(decl, point, this);
    r.c_fields = perf_c_fields(type->value, std::to_string(config->value) + "ULL",
                               std::to_string(period) + "ULL", freq);
    out.push_back(std::move(r));
    return true;
  }

  void emit(codegen::ModuleWriter &w,
            const std::vector<const ResolvedProbe *> &probes) const override {
    w.emit_probe_table("PERF", "struct stp_perf_probe", probes);
  }
};

} // namespace

std::string perf_c_fields(int64_t type, const std::string &config, const std::string &period,
                          bool freq) {
  return ".type = " + std::to_string(type) + ", .config = " + config + ", .period = " + period +
         ", .freq = " + (freq ? "true" : "false");
}

const ProbeFamily &perf_family() {
  static const PerfFamily family;
  return family;
}

} // namespace stap::probes
