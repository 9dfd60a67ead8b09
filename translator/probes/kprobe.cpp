// Probes on kernel functions by symbol name, with kprobes:
//   kprobe.function("f")[.call|.return[.maxactive(N)]]
//   kprobe.module("m").function("f")[...]
//   kernel.function("f")[...], module("m").function("f")[...]  (by symbol;
//   DWARF-level matching, $variables and wildcards come later)
#include "codegen/emitter.h"
#include "codegen/module_writer.h"
#include "probes/family.h"

namespace stap::probes {
namespace {

class KprobeFamily final : public ProbeFamily {
public:
  std::vector<std::string_view> roots() const override { return {"kprobe", "kernel", "module"}; }

  bool resolve(ast::ProbeDecl &decl, ast::ProbePoint &point, std::vector<ResolvedProbe> &out,
               Diagnostics &diag) const override {
    const auto &cs = point.components;
    size_t i = 0;
    std::string module;
    if (cs[0].functor == "kprobe")
      ++i;
    if (i < cs.size() && cs[i].functor == "module") {
      const ast::StringLit *m = string_arg(cs[i]);
      if (!m) {
        diag.error(cs[i].loc, "module(...) needs a module name string");
        return false;
      }
      module = m->value;
      ++i;
    } else if (cs[0].functor == "kernel") {
      ++i;
    }
    if (i >= cs.size() || cs[i].functor != "function" || !string_arg(cs[i])) {
      diag.error(i < cs.size() ? cs[i].loc : cs.back().loc,
                 "expected function(\"NAME\") in '" + probe_point_string(point) + "'");
      return false;
    }
    std::string symbol = string_arg(cs[i])->value;
    if (symbol.find_first_of("*?[@:") != std::string::npos) {
      diag.error(cs[i].arg->loc, "'" + symbol +
                                     "': wildcards, @file and :line in function names are "
                                     "not supported yet");
      return false;
    }
    ++i;
    bool is_return = false;
    int64_t maxactive = 0;
    if (i < cs.size() && (cs[i].functor == "call" || cs[i].functor == "return")) {
      is_return = cs[i].functor == "return";
      ++i;
    }
    if (is_return && i < cs.size() && cs[i].functor == "maxactive") {
      const ast::NumberLit *n = number_arg(cs[i]);
      if (!n || n->value <= 0) {
        diag.error(cs[i].loc, "maxactive needs a positive number");
        return false;
      }
      maxactive = n->value;
      ++i;
    }
    if (i < cs.size()) {
      diag.error(cs[i].loc, "unexpected '" + cs[i].functor + "' in '" +
                                probe_point_string(point) + "'");
      return false;
    }
    ResolvedProbe r = make_resolved(decl, point, this);
    r.c_fields = ".symbol = " + codegen::c_string_literal(module.empty() ? symbol : module + ":" + symbol) +
                 ", .is_return = " + (is_return ? "true" : "false") +
                 ", .optional = " + (point.optional ? "true" : "false") +
                 ", .maxactive = " + std::to_string(maxactive);
    out.push_back(std::move(r));
    return true;
  }

  void emit(codegen::ModuleWriter &w,
            const std::vector<const ResolvedProbe *> &probes) const override {
    w.emit_probe_table("struct stp_kprobe", "kprobes", probes);
  }
};

} // namespace

const ProbeFamily &kprobe_family() {
  static const KprobeFamily family;
  return family;
}

} // namespace stap::probes
