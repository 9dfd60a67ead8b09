// perf.type(T).config(C)[.sample(N)|.hz(N)]: a kernel perf event on
// every CPU (runtime/probes/perf.c), firing every N events (default
// 1000000, as SystemTap 4.8) or N times a second. perf.sw.NAME,
// perf.hw.NAME and perf.hw_cache.CACHE.OP.RESULT are aliases of it
// (tapsets/perf.stp). timer.profile's points are perf events too
// (timer.cpp hands them to this family's table).
// Bound to tasks (runtime/probes/perf_task.c), the forms SystemTap 4.8
// takes: .process("PATH") (every thread of every process running PATH has
// its own event, the probe runs every 1000000 of them), .process (the -c
// command's program), .counter("NAME") (no sampling: @perf("NAME") reads
// the current thread's count in a process probe; without .process, the
// -c command's program, or the -x target's processes) and
// .process("PATH").counter("NAME").
#include "codegen/module_writer.h"
#include "probes/family.h"
#include "probes/perf.h"
#include "probes/program_path.h"
#include "probes/user_target.h"
#include "driver/user_objects.h"

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
    out.push_back(head);
    out.back().push_back({"process", false});
    out.push_back(head);
    out.back().insert(out.back().end(), {{"process", true}, {"counter", true}});
    return out;
  }

  bool resolve(const ResolveEnv &env, ast::ProbeDecl &decl, ast::ProbePoint &point,
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
      return resolve_task_bound(env, decl, point, type->value, config->value, out, diag);
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

private:
  // .process("PATH"), .process, .counter("NAME"), .process("PATH").counter("NAME")
  // (checked against SystemTap 4.8's -p2: no other order, no .sample or
  // .hz with them, no .process.counter).
  bool resolve_task_bound(const ResolveEnv &env, ast::ProbeDecl &decl, ast::ProbePoint &point,
                          int64_t type, int64_t config, std::vector<ResolvedProbe> &out,
                          Diagnostics &diag) const {
    const auto &cs = point.components;
    size_t i = 3;
    const ast::ProbePointComponent *process = nullptr, *counter = nullptr;
    if (cs[i].functor == "process")
      process = &cs[i++];
    if (i < cs.size() && cs[i].functor == "counter" && (!process || process->arg))
      counter = &cs[i++];
    if (i < cs.size()) { // 4.8: "invalid suffix for probe"
      diag.error(cs[i].loc, "unexpected '" + component_string(cs[i]) + "' in '" +
                                probe_point_string(point) + "'");
      return false;
    }
    if (counter && (!string_arg(*counter) || string_arg(*counter)->value.empty())) {
      diag.error(counter->loc, "perf .counter needs a name string (what @perf reads)");
      return false;
    }
    if (process && process->arg && !string_arg(*process)) {
      diag.error(process->loc, "perf .process needs a program's path string");
      return false;
    }
    const UserTarget *user = env.user;
    std::string command = user ? command_program(user->target_command) : "";
    if (process && !process->arg && command.empty()) {
      // SystemTap 4.8's words
      diag.error(process->loc, "unspecified process probe is invalid without a -c COMMAND");
      return false;
    }
    // The program: .process("PATH"), else the -c command's (as 4.8 infers
    // it), else (a .counter alone) the -x target's processes, or none.
    std::string path = process && process->arg ? string_arg(*process)->value : command;
    ast::ProbePoint *shown = &point;
    std::string c_path = "NULL";
    if (!path.empty()) {
      const Sysroot *sysroot = user && user->sysroot ? user->sysroot() : nullptr;
      auto f = sysroot ? find_program(*sysroot, path) : std::nullopt;
      if (f)
        path = f->target_path;
      else if (path[0] != '/') {
        diag.error(process && process->arg ? process->arg->loc : cs[i - 1].loc,
                   "no such program: '" + path + "'");
        return false;
      } // else not there yet: taken when a process execs it, as 4.8 does
      c_path = codegen::c_string_literal(path);
      if (process)
        shown = with_string_arg(point, 3, path);
    }
    ResolvedProbe r = make_resolved(decl, *shown, this);
    r.c_fields = perf_c_fields(type, std::to_string(config) + "ULL",
                               counter ? "0ULL" : "1000000ULL", false) +
                 ", .bound = " + (c_path == "NULL" ? "STP_PERF_BOUND_TARGET" : "STP_PERF_BOUND_PATH") +
                 ", .path = " + c_path + ", .counter = " + (counter ? "true" : "false");
    // A counter's body never runs (4.8: "will not be invoked"), but the
    // counter must exist for @perf.
    r.acts_without_body = counter != nullptr;
    out.push_back(std::move(r));
    return true;
  }
};

} // namespace

std::string perf_counter_name(const ResolvedProbe &probe) {
  if (!probe.point || probe.c_fields.find(".counter = true") == std::string::npos)
    return "";
  const ast::StringLit *name = string_arg(probe.point->components.back());
  return name ? name->value : "";
}

bool perf_task_bound(const ResolvedProbe &probe) {
  return probe.c_fields.find(".bound = STP_PERF_BOUND_") != std::string::npos;
}

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
