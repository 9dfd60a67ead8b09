// timer.s(N), .sec, .ms/.msec, .us/.usec, .ns/.nsec, .hz(N), .jiffies(N),
// each but .hz with an optional .randomize(R): periodic probes on an hrtimer.
// timer.profile, timer.profile.tick, timer.profile.freq.hz(N): a sampling
// timer on every CPU: cpu-clock perf events (probes/perf.cpp,
// runtime/probes/perf.c).
#include "codegen/emitter.h"
#include "codegen/module_writer.h"
#include "probes/family.h"
#include "probes/perf.h"

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
  std::string_view probe_type(const ResolvedProbe &probe) const override {
    return probe.c_fields.find("STP_TIMER_JIFFIES") != std::string::npos ? "timer" : "hrtimer";
  }
  std::vector<std::string_view> roots() const override { return {"timer"}; }

  std::vector<PointShape> shapes() const override {
    std::vector<PointShape> out;
    for (const auto &[unit, _] : units()) {
      out.push_back({{"timer", false}, {unit, true}});
      // As SystemTap 4.8: a timer.hz(N) cannot be randomized.
      if (unit != "hz")
        out.push_back({{"timer", false}, {unit, true}, {"randomize", true}});
    }
    out.push_back({{"timer", false}, {"profile", false}});
    out.push_back({{"timer", false}, {"profile", false}, {"tick", false}});
    out.push_back({{"timer", false}, {"profile", false}, {"freq", false}, {"hz", true}});
    return out;
  }

  bool resolve(const ResolveEnv &env, ast::ProbeDecl &decl, ast::ProbePoint &point, std::vector<ResolvedProbe> &out,
               Diagnostics &diag) const override {
    const auto &cs = point.components;
    if (cs.size() < 2) {
      diag.error(cs[0].loc, "timer probe needs a unit: timer.s(N), timer.ms(N), ...");
      return false;
    }
    if (cs[1].functor == "profile")
      return resolve_profile(decl, point, out, diag);
    auto unit = units().find(cs[1].functor);
    if (unit == units().end()) {
      diag.error(cs[1].loc, "unknown timer probe '" + probe_point_string(point) + "'");
      return false;
    }
    const ast::NumberLit *n = number_arg(cs[1]);
    if (!n || n->value <= 0) {
      diag.error(cs[1].loc, "timer." + cs[1].functor + " needs a positive number");
      return false;
    }
    int64_t randomize = 0;
    if (cs.size() == 3 && cs[2].functor == "randomize" && cs[1].functor != "hz") {
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
    // (timer.profile's probes belong to the perf family: see resolve_profile)
    w.emit_probe_table("TIMER", "struct stp_timer_probe", probes);
  }

private:
  // As SystemTap 4.8 on kernels without the profile-tick hook (6.1):
  // timer.profile samples every 1 ms; .tick every jiffy (1/CONFIG_HZ s);
  // .freq.hz(N) N times a second.
  bool resolve_profile(ast::ProbeDecl &decl, ast::ProbePoint &point,
                       std::vector<ResolvedProbe> &out, Diagnostics &diag) const {
    const auto &cs = point.components;
    std::string period;
    if (cs[1].arg) {
      diag.error(cs[1].loc, "timer.profile takes no argument");
      return false;
    }
    if (cs.size() == 2) {
      period = "1000000ULL";
    } else if (cs.size() == 3 && cs[2].functor == "tick" && !cs[2].arg) {
      period = "TICK_NSEC";
    } else if (cs.size() == 4 && cs[2].functor == "freq" && !cs[2].arg && cs[3].functor == "hz") {
      const ast::NumberLit *n = number_arg(cs[3]);
      if (!n || n->value <= 0 || n->value > 100000) {
        diag.error(cs[3].loc, "timer.profile.freq.hz needs a number from 1 to 100000");
        return false;
      }
      period = "(NSEC_PER_SEC / " + std::to_string(n->value) + "ULL)";
    } else {
      const ast::ProbePointComponent &bad = cs.size() > 2 ? cs[2] : cs[1];
      diag.error(bad.loc, "unknown timer probe '" + probe_point_string(point) +
                              "': expected timer.profile, timer.profile.tick or "
                              "timer.profile.freq.hz(N)");
      return false;
    }
    // A cpu-clock perf event (PERF_TYPE_SOFTWARE 1, PERF_COUNT_SW_CPU_CLOCK
    // 0) counting nanoseconds: the perf family's table has it.
    ResolvedProbe r = make_resolved(decl, point, &perf_family());
    r.c_fields = perf_c_fields(1, "0", period, false);
    out.push_back(std::move(r));
    return true;
  }
};

} // namespace

const ProbeFamily &timer_family() {
  static const TimerFamily family;
  return family;
}

} // namespace stap::probes
