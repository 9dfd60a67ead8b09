// Probes on kernel functions by symbol name, with kprobes:
//   kprobe.function("f")[.call|.return[.maxactive(N)]]
//   kprobe.module("m").function("f")[...]
//   kernel.function("f")[...], module("m").function("f")[...]  (by symbol;
//   DWARF-level matching, @file and :line come later)
// Their target variables ($count, $file->f_path, $return with its type)
// come from the function's BTF prototype (probes/function_scope.h).
// A wildcard in a kernel function name expands to one probe per matching
// function of the target kernel (symtab/kernel_symbols.h); a name the
// kernel's kprobe blacklist forbids is reported here rather than at load.
// A wildcard in a module name or in a module's function name expands over
// the target's .ko files (symtab/module_symbols.h).
#include "codegen/emitter.h"
#include "codegen/module_writer.h"
#include "lang/glob.h"
#include "probes/dwarf_function.h"
#include "probes/family.h"
#include "probes/function_scope.h"
#include "symtab/exported_symbols.h"
#include "symtab/kernel_symbols.h"
#include "symtab/module_symbols.h"
#include "util/module_name.h"

#include <set>

namespace stap::probes {

const ProbeFamily &tracepoint_family();
const ProbeFamily &hwbkpt_family();
// kprobe.statement(ADDR).absolute (kprobe_statement.cpp): this family's
// probes, by address.
bool resolve_kprobe_statement(const ResolveEnv &env, ast::ProbeDecl &decl, ast::ProbePoint &point,
                              const ProbeFamily *kprobes, std::vector<ResolvedProbe> &out,
                              Diagnostics &diag);

namespace {

class KprobeFamily final : public ProbeFamily {
public:
  std::string_view probe_type(const ResolvedProbe &probe) const override {
    return probe.is_return ? "kretprobe" : "kprobe";
  }
  std::vector<std::string_view> roots() const override { return {"kprobe", "kernel", "module"}; }

  std::vector<PointShape> shapes() const override {
    // kernel.trace("NAME") belongs to the tracepoint family (tracepoint.cpp),
    // kernel.data(...) to the hardware watchpoints (hwbkpt.cpp)
    std::vector<PointShape> out = {{{"kernel", false}, {"trace", true}},
                                   {{"kprobe", false}, {"statement", true}, {"absolute", false}}};
    for (const char *access : {"write", "rw"}) {
      out.push_back({{"kernel", false}, {"data", true}, {access, false}});
      out.push_back({{"kernel", false}, {"data", true}, {"length", true}, {access, false}});
    }
    const std::vector<PointShape> heads = {
        {{"kprobe", false}, {"function", true}},
        {{"kprobe", false}, {"module", true}, {"function", true}},
        {{"kernel", false}, {"function", true}},
        {{"module", true}, {"function", true}},
    };
    const std::vector<PointShape> tails = {
        {}, {{"call", false}}, {{"return", false}}, {{"return", false}, {"maxactive", true}}};
    for (const PointShape &h : heads)
      for (const PointShape &t : tails) {
        out.push_back(h);
        out.back().insert(out.back().end(), t.begin(), t.end());
      }
    // DWARF-only points (dwarf_function.cpp). `.inline`, `.exported`,
    // `.callees` are left out: `function("f").*` means .call and .return.
    for (const PointShape &h : {PointShape{{"kernel", false}}, PointShape{{"module", true}}}) {
      for (const PointShape &t :
           std::vector<PointShape>{{{"function", true}, {"label", true}},
                                   {{"function", true}, {"callee", true}},
                                   {{"function", true}, {"callee", true}, {"call", false}},
                                   {{"function", true}, {"callee", true}, {"return", false}},
                                   {{"statement", true}},
                                   {{"statement", true}, {"nearest", false}}}) {
        out.push_back(h);
        out.back().insert(out.back().end(), t.begin(), t.end());
      }
    }
    return out;
  }

  bool resolve(const ResolveEnv &env, ast::ProbeDecl &decl, ast::ProbePoint &point, std::vector<ResolvedProbe> &out,
               Diagnostics &diag) const override {
    const auto &cs = point.components;
    if (cs[0].functor == "kernel" && cs.size() > 1 && cs[1].functor == "trace")
      return tracepoint_family().resolve(env, decl, point, out, diag);
    if (cs[0].functor == "kernel" && cs.size() > 1 && cs[1].functor == "data")
      return hwbkpt_family().resolve(env, decl, point, out, diag);
    if (cs[0].functor == "kprobe" && cs.size() > 1 && cs[1].functor == "statement")
      return resolve_kprobe_statement(env, decl, point, this, out, diag);
    // With DWARF for the kernel or module: functions, inline instances,
    // statements and their variables (dwarf_function.cpp); else by symbol.
    if (std::optional<bool> dwarf = resolve_dwarf_probe(env, decl, point, this, out, diag))
      return *dwarf;
    size_t i = 0;
    std::string module;
    size_t module_index = 0;
    if (cs[0].functor == "kprobe")
      ++i;
    if (i < cs.size() && cs[i].functor == "module") {
      const ast::StringLit *m = string_arg(cs[i]);
      if (!m) {
        diag.error(cs[i].loc, "module(...) needs a module name string");
        return false;
      }
      module = m->value;
      module_index = i;
      ++i;
    } else if (cs[0].functor == "kernel") {
      ++i;
    }
    if (i >= cs.size() || cs[i].functor != "function" || !string_arg(cs[i])) {
      diag.error(i < cs.size() ? cs[i].loc : cs.back().loc,
                 "expected function(\"NAME\") in '" + probe_point_string(point) + "'");
      return false;
    }
    const size_t function_index = i;
    std::string symbol = string_arg(cs[i])->value;
    const SourceLoc symbol_loc = cs[i].arg->loc;
    if (symbol.find_first_of("@:") != std::string::npos) {
      diag.error(symbol_loc, "'" + symbol + "': @file and :line in function names need "
                                            "debuginfo, which is not supported yet");
      return false;
    }
    ++i;
    bool is_return = false;
    int64_t maxactive = 0;
    // `.exported` stands alone, as in 4.8 (no `.exported.return`).
    const bool exported = cs[0].functor != "kprobe" && i + 1 == cs.size() &&
                          cs[i].functor == "exported";
    if (exported)
      ++i;
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
    std::vector<ModuleFunction> targets;
    const std::string &release = env.target.release;
    bool ok = module.empty()
                  ? functions(release, symbol, symbol_loc, point.optional, targets, diag)
                  : module_functions(release, module, cs[module_index].arg->loc, symbol, symbol_loc,
                                     point.optional, targets, diag);
    if (!ok)
      return false;
    if (exported && !only_exported(env, point, cs[function_index].loc, targets, diag))
      return false;
    // Target variables from the function's prototype, when the body
    // (or -L) asks for them.
    bool want_scope = env.kernel_debuginfo && (env.list_vars || uses_target_vars(decl));
    const bool by_copies = module.empty() && cs[0].functor == "kernel"; // placements()
    for (const auto &[m, f] : targets) {
      ast::ProbePoint *p = &point;
      // One concrete point per function, as pp() and -l show it.
      if (f != symbol)
        p = with_string_arg(*p, function_index, f);
      if (m != module)
        p = with_string_arg(*p, module_index, m);
      const std::string common = std::string(", .is_return = ") + (is_return ? "true" : "false") +
                                 ", .optional = " + (point.optional ? "true" : "false") +
                                 ", .maxactive = " + std::to_string(maxactive);
      for (const std::string &where : placements(release, m, f, by_copies)) {
        ResolvedProbe r = make_resolved(decl, *p, this);
        r.function = f;
        r.is_return = is_return;
        r.c_fields = where + common;
        if (want_scope)
          r.scope = function_scope(env, m, f, is_return);
        out.push_back(std::move(r));
      }
    }
    return true;
  }

  // Without debuginfo a function probe has only its return value.
  std::vector<ContextVar> context_vars(const ResolvedProbe &probe) const override {
    if (probe.is_return)
      return {{"$return", ast::Type::Long}};
    return {};
  }

  bool has_entry_values() const override { return true; }

  // Each handler gets its own kernel callbacks, which call it directly
  // (runtime/probes/kprobe_entry.h): one per script probe, however many
  // functions it covers. A callback holds the whole context entry (about
  // 370 bytes of code on x86_64), so a module with many handlers
  // (`syscall.*`: one per system call, 436) keeps the runtime's shared
  // callbacks, whose call of the handler is indirect: its hits cost an
  // indirect call more (bench/performance-notes.md), its module no
  // hundreds of kilobytes more.
  static constexpr size_t max_direct_handlers = 32;

  void emit(codegen::ModuleWriter &w,
            const std::vector<const ResolvedProbe *> &probes) const override {
    std::set<std::string> handlers;
    for (const ResolvedProbe *p : probes)
      handlers.insert(callback_name(*p));
    if (handlers.size() > max_direct_handlers) {
      w.emit_probe_table("KPROBE", "struct stp_kprobe", probes);
      return;
    }
    std::set<std::string> emitted;
    auto callback = [&](const ResolvedProbe &p) {
      std::string name = callback_name(p);
      if (emitted.insert(name).second) {
        codegen::Emitter &out = w.out();
        out.blank();
        out.comment(p.handler + "'s kernel callback: its call direct.");
        if (p.is_return) {
          out.open("static int " + name + "(struct kretprobe_instance *ri, struct pt_regs *regs)");
          out.line("return stp_kretprobe_run(ri, regs, " + p.handler + ");");
        } else {
          out.open("static int " + name + "(struct kprobe *kp, struct pt_regs *regs)");
          out.line("return stp_kprobe_pre_run(kp, regs, " + p.handler + ");");
        }
        out.close();
      }
      return (p.is_return ? ".ret_handler = " : ".pre_handler = ") + name;
    };
    w.emit_probe_table("KPROBE", "struct stp_kprobe", probes, callback);
  }

  static std::string callback_name(const ResolvedProbe &p) {
    return p.handler + (p.is_return ? "_kretprobe" : "_kprobe");
  }

private:
  using ModuleFunction = std::pair<std::string, std::string>; // module ("" for the kernel), function

  // The kernel functions `pattern` names: itself, or every match of a
  // wildcard.
  bool functions(const std::string &release, const std::string &pattern, SourceLoc loc, bool optional,
                 std::vector<ModuleFunction> &targets, Diagnostics &diag) const {
    std::vector<std::string> out;
    bool ok = kernel_functions(release, pattern, loc, optional, out, diag);
    for (std::string &f : out)
      targets.emplace_back("", std::move(f));
    return ok;
  }

  // The functions of the modules `module` names. Exact names are passed
  // through (the kernel checks them at registration); with a wildcard in
  // either, the target's .ko files say what there is.
  bool module_functions(const std::string &release, const std::string &module, SourceLoc module_loc,
                        const std::string &pattern, SourceLoc loc, bool optional,
                        std::vector<ModuleFunction> &targets, Diagnostics &diag) const {
    if (!lang::has_glob(module) && !lang::has_glob(pattern)) {
      targets.emplace_back(module, pattern);
      return true;
    }
    std::string error;
    auto modules = symtab::module_functions(release, module, error);
    if (modules.empty()) {
      if (!optional)
        diag.error(module_loc, error.empty() ? "no module of " + release + " matches '" +
                                                   module + "'"
                                             : "cannot expand '" + module + "': " + error);
      return optional;
    }
    for (const auto &m : modules)
      for (const std::string &f : m.functions)
        if (lang::glob_match(pattern, f))
          targets.emplace_back(m.module, f);
    if (targets.empty() && !optional) {
      diag.error(loc, "no function of a module matching '" + module + "' matches '" + pattern +
                          "'");
      return false;
    }
    return true;
  }

  // `.exported`: keeps the functions the kernel or their module exports
  // (the build tree's Module.symvers; with DWARF, dwarf_function.cpp looks
  // for `__ksymtab_NAME` instead).
  bool only_exported(const ResolveEnv &env, const ast::ProbePoint &point, SourceLoc loc,
                     std::vector<ModuleFunction> &targets, Diagnostics &diag) const {
    std::string error;
    const symtab::ExportedSymbols *exports = symtab::exported_symbols(env.target.build_dir, error);
    if (!exports) {
      diag.error(loc, "cannot tell which functions are exported: " + error);
      return false;
    }
    std::erase_if(targets, [&](const ModuleFunction &t) {
      auto it = exports->find(t.first.empty() ? "vmlinux" : kernel_module_name(t.first));
      return it == exports->end() || !it->second.count(t.second);
    });
    if (targets.empty() && !point.optional) {
      diag.error(loc, "no exported function matches '" + probe_point_string(point) + "'");
      return false;
    }
    return true;
  }

  // Where the probes on function `f` of module `m` ("": the kernel) go,
  // as stp_kprobe fields: one probe each. With `by_copies`
  // (kernel.function), a name several kernel functions share gets one
  // probe per copy, by its address (by name the kernel would take only
  // the first it finds). Else by name, the kernel finding it: for
  // kprobe.function too, which SystemTap 4.8 registers by name whatever
  // the copies.
  static std::vector<std::string> placements(const std::string &release, const std::string &m,
                                             const std::string &f, bool by_copies) {
    std::vector<std::string> out;
    for (int64_t offset : by_copies ? kernel_function_copies(release, f) : std::vector<int64_t>{})
      out.push_back(".symbol = " + codegen::c_string_literal(f) + ", .addr = (unsigned long)" +
                    std::to_string(offset) + "L, .from_printk = true");
    if (out.empty())
      out.push_back(".symbol = " + codegen::c_string_literal(m.empty() ? f : m + ":" + f));
    return out;
  }

  // The offsets from _printk of the copies of kernel function `name` when
  // the target kernel has several (none for a unique name, or without the
  // kernel's symbols: then the kernel resolves the name).
  static std::vector<int64_t> kernel_function_copies(const std::string &release,
                                                     const std::string &name) {
    if (name.find('.') != std::string::npos)
      return {}; // a compiler clone: kallsyms lists no such names
    std::string error;
    const symtab::KernelSymbols *k = symtab::kernel_symbols(release, error);
    return k ? k->function_copies(name) : std::vector<int64_t>{};
  }

  bool kernel_functions(const std::string &release, const std::string &pattern, SourceLoc loc, bool optional,
                        std::vector<std::string> &out, Diagnostics &diag) const {
    bool wild = lang::has_glob(pattern);
    if (!wild && pattern.find('.') != std::string::npos) {
      out.push_back(pattern); // a compiler clone (f.isra.0): kallsyms lists no such names
      return true;
    }
    std::string error;
    const symtab::KernelSymbols *k = symtab::kernel_symbols(release, error);
    if (!k) {
      if (!wild) {
        out.push_back(pattern); // the kernel checks the name at registration
        return true;
      }
      diag.error(loc, "cannot expand '" + pattern + "': " + error);
      return false;
    }
    std::vector<std::string> names = k->functions_matching(pattern);
    for (const std::string &f : names) {
      if (!k->blacklisted.count(f)) {
        out.push_back(f);
        continue;
      }
      if (!wild && !optional) {
        diag.error(loc, "function '" + f + "' cannot be probed: it is on the kernel's kprobe "
                                           "blacklist");
        return false;
      }
    }
    if (out.empty() && !optional) {
      diag.error(loc, names.empty()
                          ? "no kernel function matches '" + pattern + "'"
                          : "every kernel function matching '" + pattern +
                                "' is on the kprobe blacklist");
      return false;
    }
    return true;
  }
};

} // namespace

const ProbeFamily &kprobe_family() {
  static const KprobeFamily family;
  return family;
}

} // namespace stap::probes
