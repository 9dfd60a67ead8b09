#include "probes/dwarf_function.h"

#include "codegen/emitter.h"
#include "dwarf/functions.h"
#include "dwarf/globals.h"
#include "dwarf/kernel_debuginfo.h"
#include "dwarf/scope.h"
#include "probes/function_scope.h"

#include <memory>
#include <set>

namespace stap::probes {
namespace {

// What the point asks for, parsed.
struct Request {
  bool kernel = false;
  std::string module;          // module("M") argument (a name or a .ko path)
  size_t module_index = 0;
  size_t what_index = 0;       // function(...) or statement(...)
  bool statement = false;
  std::string pattern;
  SourceLoc pattern_loc;
  bool is_return = false, inlined = false, exported = false, nearest = false;
  bool call = false;
  std::optional<std::string> label, callee;
  bool callees = false;
  int64_t depth = 1;           // .callees(N): how many levels of callees
  int64_t maxactive = 0;
  // Suffixes that only DWARF can answer (no fallback to symbols).
  bool needs_dwarf() const {
    return statement || inlined || label || callee || callees ||
           pattern.find_first_of("@:") != std::string::npos;
  }
};

std::optional<Request> parse(ast::ProbePoint &point, Diagnostics &diag, bool &mine) {
  const auto &cs = point.components;
  Request r;
  mine = false;
  size_t i = 0;
  if (cs[0].functor == "kernel") {
    r.kernel = true;
    i = 1;
  } else if (cs[0].functor == "module") {
    const ast::StringLit *m = string_arg(cs[0]);
    if (!m)
      return std::nullopt;
    r.module = m->value;
    i = 1;
  } else {
    return std::nullopt;
  }
  if (i >= cs.size() || (cs[i].functor != "function" && cs[i].functor != "statement") ||
      !string_arg(cs[i]))
    return std::nullopt;
  r.statement = cs[i].functor == "statement";
  r.what_index = i;
  r.pattern = string_arg(cs[i])->value;
  r.pattern_loc = cs[i].arg->loc;
  mine = true;
  for (++i; i < cs.size(); ++i) {
    const std::string &f = cs[i].functor;
    auto bad = [&](const std::string &why) {
      diag.error(cs[i].loc, why);
      return std::nullopt;
    };
    if (f == "call" && !r.statement) r.call = true;
    else if (f == "return" && !r.statement) r.is_return = true;
    else if (f == "inline" && !r.statement) r.inlined = true;
    // `.exported` stands alone, as in 4.8 (no `.exported.return`).
    else if (f == "exported" && !r.statement && i == r.what_index + 1 && i + 1 == cs.size())
      r.exported = true;
    else if (f == "nearest" && r.statement) r.nearest = true;
    else if (f == "callees" && !r.statement) {
      r.callees = true;
      if (cs[i].arg) {
        const ast::NumberLit *n = number_arg(cs[i]);
        if (!n || n->value <= 0)
          return bad("callees(...) needs a positive depth");
        r.depth = n->value;
      }
    }
    else if (f == "maxactive" && r.is_return) {
      const ast::NumberLit *n = number_arg(cs[i]);
      if (!n || n->value <= 0)
        return bad("maxactive needs a positive number");
      r.maxactive = n->value;
    } else if ((f == "label" || f == "callee") && !r.statement) {
      const ast::StringLit *s = string_arg(cs[i]);
      if (!s)
        return bad(f + "(...) needs a string");
      (f == "label" ? r.label : r.callee) = s->value;
    } else {
      return bad("unexpected '" + f + "' in '" + probe_point_string(point) + "'");
    }
  }
  if (r.inlined && r.is_return)
    return diag.error(point.loc, "inline instances have no return probes"), std::nullopt;
  return r;
}

// Point nodes made here for each match live as long as the program.
struct MadePoints {
  std::vector<std::unique_ptr<ast::ProbePoint>> points;
  std::vector<std::unique_ptr<ast::StringLit>> strings;
};
MadePoints &made() {
  static MadePoints m; // AST nodes, not debuginfo: owned for the program's life
  return m;
}

ast::ProbePoint *with_arg(const ast::ProbePoint &point, size_t index, const std::string &value) {
  auto p = std::make_unique<ast::ProbePoint>(point);
  auto s = std::make_unique<ast::StringLit>(*string_arg(point.components[index]));
  s->value = value;
  p->components[index].arg = s.get();
  made().strings.push_back(std::move(s));
  made().points.push_back(std::move(p));
  return made().points.back().get();
}

class DwarfResolver {
public:
  DwarfResolver(const ResolveEnv &env, ast::ProbeDecl &decl, ast::ProbePoint &point,
                const ProbeFamily *family, const Request &req, dwarf::DebugFile &file,
                std::string module_name, std::vector<ResolvedProbe> &out, Diagnostics &diag)
      : env_(env), decl_(decl), point_(point), family_(family), req_(req), file_(file),
        module_(std::move(module_name)), out_(out), diag_(diag) {}

  bool run(const dwarf::FunctionPattern &pat) {
    bool inline_only = req_.inlined;
    auto fns = dwarf::find_functions(file_, pat, !inline_only, inline_only);
    size_t before = out_.size();
    for (const dwarf::FunctionInfo &fn : fns) {
      if (req_.exported && !file_.symbol_address("__ksymtab_" + fn.name))
        continue;
      if (fn.decl_file.empty() || (!fn.inlined && !file_.symbol_at(fn.entry)))
        continue;
      if (!ok_section(fn.entry))
        continue;
      // function("f@file:N") is f declared at line N (what pp() spells);
      // statement("f@file:N") is the code of line N in f.
      if (!req_.statement && !dwarf::declared_on(pat, fn.decl_line))
        continue;
      if (req_.statement) {
        lines(fn, pat);
      } else if (req_.label) {
        for (const auto &l : dwarf::find_labels(file_, fn, *req_.label))
          add(fn, l.addr, l.name, spelled(fn), false);
      } else if (req_.callee || req_.callees) {
        std::set<Dwarf_Off> path{fn.die};
        callees(fn, req_.callee.value_or("*"), req_.depth, {}, path);
      } else if (req_.is_return) {
        add(fn, fn.entry, "", spelled(fn), true);
      } else {
        add(fn, fn.probe, "", spelled(fn), false);
      }
    }
    if (out_.size() == before && !point_.optional && (req_.callee || req_.callees) &&
        !fns.empty()) {
      diag_.error(req_.pattern_loc, "'" + req_.pattern + "' calls no function of " + where() +
                                        " that matches '" + req_.callee.value_or("*") +
                                        "' (calls through pointers, tail calls and calls into "
                                        "other objects cannot be probed so)");
      return false;
    }
    if (out_.size() == before && !point_.optional) {
      diag_.error(req_.pattern_loc, "no function of " + where() + " matches '" + req_.pattern + "'" +
                                        (req_.label ? " with label '" + *req_.label + "'" : ""));
      return false;
    }
    return true;
  }

private:
  std::string where() const { return module_.empty() ? "the kernel" : "module '" + module_ + "'"; }

  static std::string spelled(const dwarf::FunctionInfo &fn) {
    return fn.name + "@" + fn.decl_file + ":" + std::to_string(fn.decl_line);
  }

  // Code that is gone once the module or kernel has started.
  bool ok_section(Dwarf_Addr addr) const {
    std::string s = file_.section_at(addr);
    return s.rfind(".init", 0) != 0;
  }

  void lines(const dwarf::FunctionInfo &fn, const dwarf::FunctionPattern &pat) {
    auto [first, last] = dwarf::statement_lines(pat, fn.decl_line);
    for (const auto &l : dwarf::source_lines(file_, fn, first, last, req_.nearest))
      add(fn, l.addr, "", fn.name + "@" + fn.decl_file + ":" + std::to_string(l.line), false);
  }

  // A call site a callee probe checks (runtime/probes/kprobes.h, struct
  // stp_callsite): the return address of a call, `level` frames up.
  struct CallSite {
    Dwarf_Addr return_pc;
    unsigned level;
    std::optional<int64_t> frame_size; // of the function the call is in
  };

  // .callee("PATTERN") / .callees(N): a probe on each function `caller`
  // calls, at its entry, that fires only when the return address on the
  // stack is one of caller's calls to it (and, `depth` levels down, the
  // frames above are the calls that led there: `above`). pp() names the
  // immediate caller and the callee, as 4.8 does at every depth.
  void callees(const dwarf::FunctionInfo &caller, const std::string &pattern, int64_t depth,
               const std::vector<CallSite> &above, std::set<Dwarf_Off> &path) {
    const arch::Register *sp = arch::find_register(env_.arch, env_.arch.sp_reg);
    for (const dwarf::Callee &c : dwarf::find_callees(file_, caller, pattern)) {
      if (c.return_pcs.empty() || !ok_section(c.fn.entry))
        continue; // only tail calls: they do not return into caller
      std::vector<CallSite> sites;
      for (Dwarf_Addr ret : c.return_pcs)
        sites.push_back({ret, 0, sp ? dwarf::frame_size_at(file_, ret - 1, sp->dwarf)
                                    : std::nullopt});
      for (const CallSite &s : above)
        sites.push_back({s.return_pc, s.level + 1, s.frame_size});
      add(c.fn, c.fn.entry, "", "", req_.is_return, callee_point(caller, c.fn), sites);
      if (depth > 1 && path.insert(c.fn.die).second) {
        callees(c.fn, "*", depth - 1, sites, path);
        path.erase(c.fn.die);
      }
    }
  }

  // The point of a callee probe, as pp() spells it:
  // function("caller@file:N").callee("callee@file:M"), then .call or .return.
  ast::ProbePoint *callee_point(const dwarf::FunctionInfo &caller,
                                const dwarf::FunctionInfo &callee) const {
    auto p = std::make_unique<ast::ProbePoint>(*with_arg(point_, req_.what_index, spelled(caller)));
    const ast::ProbePointComponent &fn = p->components[req_.what_index];
    std::vector<ast::ProbePointComponent> cs(p->components.begin(),
                                             p->components.begin() + req_.what_index + 1);
    auto s = std::make_unique<ast::StringLit>(*string_arg(fn));
    s->value = spelled(callee);
    cs.push_back(ast::ProbePointComponent{"callee", s.get(), fn.loc});
    made().strings.push_back(std::move(s));
    for (size_t i = req_.what_index + 1; i < point_.components.size(); ++i) {
      const std::string &f = point_.components[i].functor;
      if (f == "call" || f == "return" || f == "maxactive")
        cs.push_back(point_.components[i]);
    }
    p->components = std::move(cs);
    made().points.push_back(std::move(p));
    return made().points.back().get();
  }

  // The stp_callsite initializers of `sites`, as C; `n` how many.
  std::string callsites_c(const std::vector<CallSite> &sites, size_t &n) const {
    std::string out;
    n = 0;
    for (const CallSite &s : sites) {
      std::string where;
      char buf[64];
      if (module_.empty()) {
        auto anchor = file_.symbol_address("_printk");
        if (!anchor)
          continue;
        snprintf(buf, sizeof buf, "(unsigned long)0x%llxULL",
                 static_cast<unsigned long long>(s.return_pc - *anchor));
        where = "NULL, NULL, " + std::string(buf);
      } else {
        auto start = file_.section_start(s.return_pc);
        std::string section = file_.section_at(s.return_pc);
        if (!start || section.empty())
          continue;
        where = codegen::c_string_literal(module_) + ", " + codegen::c_string_literal(section) +
                ", " + std::to_string(s.return_pc - *start) + "UL";
      }
      out += "{ " + where + ", " + std::to_string(s.level) + ", " +
             std::to_string(s.frame_size.value_or(-1)) + " }, ";
      ++n;
    }
    return out;
  }

  // One probe at DWARF address `addr` of `fn`.
  // `label`: the label's name, for a .label("PATTERN") point.
  // `callee`: for a .callee point, its point (callee_point()) and the
  // call sites it must come from.
  void add(const dwarf::FunctionInfo &fn, Dwarf_Addr addr, const std::string &label,
           const std::string &spelling, bool is_return, ast::ProbePoint *callee = nullptr,
           const std::vector<CallSite> &sites = {}) {
    auto sym = file_.symbol_at(addr);
    if (!sym)
      return;
    if (is_return && sym->offset != 0)
      return; // a kretprobe goes on a symbol's first instruction
    ast::ProbePoint *p = callee ? callee : with_arg(point_, req_.what_index, spelling);
    if (!module_.empty() && req_.module != module_)
      p = with_arg(*p, 0, module_);
    for (size_t i = req_.what_index + 1; !label.empty() && i < p->components.size(); ++i)
      if (p->components[i].functor == "label")
        p = with_arg(*p, i, label);
    ResolvedProbe r = make_resolved(decl_, *p, family_);
    r.function = fn.name;
    r.is_return = is_return;
    std::string symbol = module_.empty() ? sym->name : module_ + ":" + sym->name;
    r.c_fields = ".symbol = " + codegen::c_string_literal(symbol) +
                 ", .offset = " + std::to_string(sym->offset) +
                 ", .is_return = " + (is_return ? "true" : "false") +
                 ", .optional = " + (point_.optional ? "true" : "false") +
                 ", .maxactive = " + std::to_string(req_.maxactive);
    size_t n_sites = 0;
    if (std::string c = callsites_c(sites, n_sites); n_sites)
      r.c_fields += ", .callsites = (const struct stp_callsite[]){ " + c +
                    "}, .n_callsites = " + std::to_string(n_sites);
    // Only when the body (or -L) asks: a wildcard over vmlinux matches
    // thousands of functions.
    if (!env_.list_vars && !uses_target_vars(decl_)) {
      out_.push_back(std::move(r));
      return;
    }
    dwarf::ScopeOptions opts{env_.arch};
    opts.with_return = is_return;
    opts.address = [this](uint64_t a, std::string &why) { return static_address(a, why); };
    r.scope = dwarf::scope_at(file_, fn, addr, opts);
    out_.push_back(std::move(r));
  }

  // DW_OP_addr: static data (dwarf/globals.h).
  std::optional<std::string> static_address(uint64_t addr, std::string &why) const {
    return dwarf::kernel_static_address(file_, module_, addr, why);
  }

  const ResolveEnv &env_;
  ast::ProbeDecl &decl_;
  ast::ProbePoint &point_;
  const ProbeFamily *family_;
  const Request &req_;
  dwarf::DebugFile &file_;
  std::string module_;
  std::vector<ResolvedProbe> &out_;
  Diagnostics &diag_;
};

} // namespace

std::optional<bool> resolve_dwarf_probe(const ResolveEnv &env, ast::ProbeDecl &decl,
                                        ast::ProbePoint &point, const ProbeFamily *family,
                                        std::vector<ResolvedProbe> &out, Diagnostics &diag) {
  bool mine = false;
  std::optional<Request> req = parse(point, diag, mine);
  if (!mine)
    return std::nullopt;
  if (!req)
    return false;
  if (!env.kernel_dwarf)
    return req->needs_dwarf() ? std::optional<bool>(false) : std::nullopt;
  std::string why;
  dwarf::DebugFile *file = req->kernel ? env.kernel_dwarf->vmlinux(why)
                                       : env.kernel_dwarf->module(req->module, why);
  if (!file) {
    if (!req->needs_dwarf())
      return std::nullopt; // by symbol
    if (!point.optional && (req->callee || req->callees))
      diag.error(req->pattern_loc, "cannot find what '" + req->pattern +
                                       "' calls: .callee and .callees need DWARF (its call "
                                       "sites; BTF has none): " + why);
    else if (!point.optional)
      diag.error(req->pattern_loc, "cannot resolve '" + req->pattern + "': " + why);
    return point.optional;
  }
  std::string err;
  auto pat = dwarf::parse_function_pattern(req->pattern, err);
  if (!pat) {
    diag.error(req->pattern_loc, err);
    return false;
  }
  std::string module_name = req->kernel ? "" : dwarf::module_name_of(req->module);
  DwarfResolver resolver(env, decl, point, family, *req, *file, module_name, out, diag);
  return resolver.run(*pat);
}

} // namespace stap::probes
