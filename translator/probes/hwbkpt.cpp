// kernel.data(ADDRESS).write|.rw, kernel.data(ADDRESS).length(N).write|.rw,
// kernel.data("SYMBOL").write|.rw: hardware watchpoints
// (runtime/probes/hwbkpt.c), as in SystemTap 4.8.
//
// The length is rounded up to one the debug registers can watch (1, 2, 4,
// and 8 on x86_64), as 4.8 does; pp() keeps the length asked for, and a
// point without one says .length(1). A symbol is a data symbol of the
// target kernel's kallsyms (symtab/kernel_symbols.h: its offset from
// _printk, which KASLR does not change); the i686 kernels list no data
// symbols, so there only addresses can be watched. ADDRESS is taken as
// given: a wrong one is the kernel's to refuse when the probe registers.
#include "codegen/module_writer.h"
#include "probes/family.h"
#include "symtab/kernel_symbols.h"
#include "driver/target.h"


namespace stap::probes {
namespace {

// Whether kallsyms lists data symbols at all (i686 kernels: no).
bool kallsyms_all(const ResolveEnv &env) {
  auto it = env.target.config.find("CONFIG_KALLSYMS_ALL");
  return it != env.target.config.end() && it->second == "y";
}

class HwbkptFamily final : public ProbeFamily {
public:
  std::string_view probe_type(const ResolvedProbe &) const override {
    return "hardware_data_breakpoint";
  }
  // Reached through the kprobe family, which owns the root `kernel`.
  std::vector<std::string_view> roots() const override { return {}; }
  std::vector<PointShape> shapes() const override { return {}; }

  bool resolve(const ResolveEnv &env, ast::ProbeDecl &decl, ast::ProbePoint &point,
               std::vector<ResolvedProbe> &out, Diagnostics &diag) const override {
    const auto &cs = point.components;
    const ast::NumberLit *address = number_arg(cs[1]);
    const ast::StringLit *symbol = string_arg(cs[1]);
    if (!address && !symbol) {
      diag.error(cs[1].loc, "kernel.data needs an address or a symbol name string");
      return false;
    }
    size_t i = 2;
    int64_t length = 1;
    if (i < cs.size() && cs[i].functor == "length") {
      const ast::NumberLit *n = number_arg(cs[i]);
      if (symbol) {
        diag.error(cs[i].loc, "kernel.data(\"SYMBOL\") takes no .length: it watches the "
                              "symbol's first byte");
        return false;
      }
      if (!n || n->value <= 0) {
        diag.error(cs[i].loc, ".length needs a positive number of bytes");
        return false;
      }
      length = n->value;
      ++i;
    }
    if (i + 1 != cs.size() || (cs[i].functor != "write" && cs[i].functor != "rw") ||
        cs[i].arg) {
      diag.error(i < cs.size() ? cs[i].loc : cs.back().loc,
                 "expected .write or .rw at the end of '" + probe_point_string(point) + "'");
      return false;
    }
    const bool rw = cs[i].functor == "rw";
    const int64_t widest = env.target.arch == "x86_64" ? 8 : 4;
    if (length > widest) {
      diag.error(cs[2].loc, "a watchpoint of " + std::to_string(length) + " bytes: " +
                                env.target.arch + "'s debug registers watch at most " +
                                std::to_string(widest));
      return false;
    }
    const int64_t watched = length <= 1 ? 1 : length <= 2 ? 2 : length <= 4 ? 4 : 8;

    std::string where, fields;
    if (symbol) {
      std::string error;
      const symtab::KernelSymbols *k = symtab::kernel_symbols(env.target.release, error);
      if (!k) {
        diag.error(cs[1].arg->loc, error);
        return false;
      }
      std::vector<int64_t> offsets = k->data_offsets(symbol->value);
      if (offsets.size() != 1) {
        diag.error(cs[1].arg->loc,
                   offsets.empty()
                       ? "no data symbol '" + symbol->value + "' in the kallsyms of " +
                             env.target.release +
                             (kallsyms_all(env) ? "" : " (CONFIG_KALLSYMS_ALL is off: it lists "
                                                       "functions only; watch an address)")
                       : std::to_string(offsets.size()) + " data symbols are named '" +
                             symbol->value + "' in " + env.target.release +
                             ": watch an address");
        return false;
      }
      where = "\"" + symbol->value + "\"";
      fields = ".addr = (unsigned long)" + std::to_string(offsets[0]) + "L, .from_printk = true";
    } else {
      where = hex_addr(static_cast<uint64_t>(address->value));
      fields = ".addr = " + hex_addr(static_cast<uint64_t>(address->value)) + "UL, .from_printk = false";
    }
    ResolvedProbe r = make_resolved(decl, point, this);
    r.pp = "kernel.data(" + where + ").length(" + std::to_string(length) + ")." + cs[i].functor;
    // 4.8 rebuilds the point, and -p2 derives the probe from it alone.
    r.derivation = "<- " + probe_point_string(point);
    r.c_fields = fields + ", .len = " + std::to_string(watched) + ", .type = " + (rw ? "3" : "2");
    out.push_back(std::move(r));
    return true;
  }

  void emit(codegen::ModuleWriter &w,
            const std::vector<const ResolvedProbe *> &probes) const override {
    w.emit_probe_table("HWBKPT", "struct stp_hwbkpt_probe", probes);
  }
};

} // namespace

const ProbeFamily &hwbkpt_family() {
  static const HwbkptFamily family;
  return family;
}

} // namespace stap::probes
