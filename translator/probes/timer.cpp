// timer.s(N), .sec, .ms/.msec, .us/.usec, .ns/.nsec, .hz(N), .jiffies(N),
// each with an optional .randomize(R): periodic probes on an hrtimer.
#include "codegen/emitter.h"
#include "codegen/module_writer.h"
#include "probes/family.h"

#include <map>

namespace stap::probes {
namespace {

struct Unit {
  const char *c_unit;
  int64_t scale; // to the C unit
};

const std::map<std::string, Unit> &units() {
  static const std::map<std::string, Unit> u = {
      {"s", {"STP_TIMER_NS", 1000000000}},   {"sec", {"STP_TIMER_NS", 1000000000}},
      {"ms", {"STP_TIMER_NS", 1000000}},     {"msec", {"STP_TIMER_NS", 1000000}},
      {"us", {"STP_TIMER_NS", 1000}},        {"usec", {"STP_TIMER_NS", 1000}},
      {"ns", {"STP_TIMER_NS", 1}},           {"nsec", {"STP_TIMER_NS", 1}},
      {"hz", {"STP_TIMER_HZ", 1}},           {"jiffies", {"STP_TIMER_JIFFIES", 1}},
  };
  return u;
}

class TimerFamily final : public ProbeFamily {
public:
  std::vector<std::string_view> roots() const override { return {"timer"}; }

  std::vector<PointShape> shapes() const override {
    std::vector<PointShape> out;
    for (const auto &[unit, _] : units()) {
      out.push_back({{"timer", false}, {unit, true}});
      out.push_back({{"timer", false}, {unit, true}, {"randomize", true}});
    }
    return out;
  }

  bool resolve(ast::ProbeDecl &decl, ast::ProbePoint &point, std::vector<ResolvedProbe> &out,
               Diagnostics &diag) const override {
    const auto &cs = point.components;
    if (cs.size() < 2) {
      diag.error(cs[0].loc, "timer probe needs a unit: timer.s(N), timer.ms(N), ...");
      return false;
    }
    auto unit = units().find(cs[1].functor);
    if (unit == units().end()) {
      diag.error(cs[1].loc, "unknown timer probe '" + probe_point_string(point) +
                                "' (timer.profile and timer.profile.tick are not supported yet)");
      return false;
    }
    const ast::NumberLit *n = number_arg(cs[1]);
    if (!n || n->value <= 0) {
      diag.error(cs[1].loc, "timer." + cs[1].functor + " needs a positive number");
      return false;
    }
    int64_t randomize = 0;
    if (cs.size() == 3 && cs[2].functor == "randomize") {
      const ast::NumberLit *r = number_arg(cs[2]);
      if (!r || r->value < 0 || r->value >= n->value) {
        diag.error(cs[2].loc, "randomize needs a number from 0 to below the interval");
        return false;
      }
      randomize = r->value;
    } else if (cs.size() > 2) {
      diag.error(cs[2].loc, "unexpected '" + cs[2].functor + "' after timer." + cs[1].functor);
      return false;
    }
    ResolvedProbe r = make_resolved(decl, point, this);
    // Units are scaled here so the runtime deals only in ns, jiffies or Hz.
    r.c_fields = std::string(".unit = ") + unit->second.c_unit +
                 ", .interval = " + std::to_string(n->value * unit->second.scale) +
                 "ULL, .randomize = " + std::to_string(randomize * unit->second.scale) + "ULL";
    out.push_back(std::move(r));
    return true;
  }

  void emit(codegen::ModuleWriter &w,
            const std::vector<const ResolvedProbe *> &probes) const override {
    w.emit_probe_table("struct stp_timer_probe", "timers", probes);
  }
};

} // namespace

const ProbeFamily &timer_family() {
  static const TimerFamily family;
  return family;
}

} // namespace stap::probes
