// kprobe.statement(ADDR).absolute: a kprobe at a kernel address, as
// SystemTap 4.8 has it: guru mode only (an address can be the middle of
// an instruction), no symbol, no debuginfo. The probe is the kprobe
// family's (runtime/probes/kprobes.c registers it by address).
#include "codegen/emitter.h"
#include "probes/family.h"

#include <cstdio>

namespace stap::probes {

bool resolve_kprobe_statement(const ResolveEnv &env, ast::ProbeDecl &decl, ast::ProbePoint &point,
                              const ProbeFamily *kprobes, std::vector<ResolvedProbe> &out,
                              Diagnostics &diag) {
  const auto &cs = point.components;
  const ast::NumberLit *addr = number_arg(cs[1]);
  if (!addr) {
    diag.error(cs[1].loc, "kprobe.statement needs an address");
    return false;
  }
  if (cs.size() != 3 || cs[2].functor != "absolute" || cs[2].arg) {
    diag.error(cs.size() > 2 ? cs[2].loc : cs[1].loc,
               "expected kprobe.statement(ADDR).absolute in '" + probe_point_string(point) +
                   "'");
    return false;
  }
  if (!env.guru) {
    diag.error(cs[0].loc, "absolute statement probe in unprivileged script; need stap -g");
    return false;
  }
  // The address as the target's unsigned long, shown in hex as 4.8's pp().
  uint64_t a = static_cast<uint64_t>(addr->value);
  if (env.arch.long_size == 4)
    a &= 0xffffffffu;
  const std::string hex = hex_addr(a);
  ResolvedProbe r = make_resolved(decl, point, kprobes);
  r.pp = "kprobe.statement(" + hex + ").absolute";
  r.pn = r.pp;
  r.c_fields = ".symbol = NULL, .addr = " + hex + "UL, .optional = " +
               (point.optional ? "true" : "false");
  out.push_back(std::move(r));
  return true;
}

} // namespace stap::probes
