// kernel.trace("SYSTEM:NAME") and kernel.trace("NAME"), wildcards in both
// parts: probes on the target kernel's tracepoints, with the tracepoint's
// TP_PROTO arguments as target variables ($prev, $next... and $$parms).
//
// Which tracepoints exist, their TRACE_SYSTEM and their arguments' types
// come from the query objects compiled against the target's headers
// (tracequery/). Each probed tracepoint gets a generated probe function
// with the tracepoint's prototype (its arguments declared by size and
// kind): it stores the arguments in an array that the probe context points
// to and that the variables' locations read (STP_TP_ARG), then runs the
// probe. The runtime (runtime/probes/tracepoints.c) finds each tracepoint
// by name, in the kernel or in a loaded module, and hooks that function.
//
// raw_syscalls' sys_enter and sys_exit (syscall_any) are known without the
// query objects, so that the syscall tapset never waits for them.
#include "codegen/emitter.h"
#include "codegen/module_writer.h"
#include "lang/glob.h"
#include "probes/family.h"
#include "tracequery/catalog.h"

#include <algorithm>
#include <set>

namespace stap::probes {
namespace {

using debuginfo::Kind;
using debuginfo::TypeId;
using debuginfo::TypeTable;

// The C type a probe function declares an argument with: the same size and
// kind as the tracepoint's, so that the calling convention matches ("" for
// one it cannot declare: a struct or float passed by value).
std::string c_arg_type(const TypeTable &tt, TypeId id) {
  const debuginfo::Type &t = tt[tt.strip(id)];
  switch (t.kind) {
  case Kind::Pointer:
    return "void *";
  case Kind::Bool:
    return t.size == 1 ? "bool" : "";
  case Kind::Int:
  case Kind::Enum:
    switch (t.size) {
    case 1: return t.is_signed ? "s8" : "u8";
    case 2: return t.is_signed ? "s16" : "u16";
    case 4: return t.is_signed ? "s32" : "u32";
    case 8: return t.is_signed ? "s64" : "u64";
    }
    return "";
  default:
    return "";
  }
}

// The value of argument `i` as the script sees it, from the saved u64.
std::string value_expr(const std::string &c_type, size_t i) {
  std::string slot = "STP_TP_ARG(c, " + std::to_string(i) + ")";
  if (c_type == "void *")
    return "((unsigned long)" + slot + ")";
  return "((" + c_type + ")" + slot + ")";
}

// One tracepoint a probe resolved to: its identity and prototype.
struct Resolved {
  std::string system, name;
  std::shared_ptr<const TypeTable> types;
  std::vector<tracequery::TracepointArg> args;
};

// raw_syscalls:sys_enter(struct pt_regs *regs, long id) and
// sys_exit(struct pt_regs *regs, long ret), built in.
bool builtin_raw_syscall(const std::string &name, uint64_t long_size, Resolved &r) {
  if (name != "sys_enter" && name != "sys_exit")
    return false;
  auto tt = std::make_shared<TypeTable>();
  debuginfo::Type regs;
  regs.kind = Kind::Struct;
  regs.name = "pt_regs";
  regs.declaration = true;
  TypeId regs_id = tt->add(regs);
  debuginfo::Type ptr;
  ptr.kind = Kind::Pointer;
  ptr.size = long_size;
  ptr.target = regs_id;
  TypeId ptr_id = tt->add(ptr);
  debuginfo::Type lng;
  lng.kind = Kind::Int;
  lng.name = "long int";
  lng.size = long_size;
  lng.is_signed = true;
  TypeId long_id = tt->add(lng);
  r.system = "raw_syscalls";
  r.name = name;
  r.types = tt;
  r.args = {{"regs", ptr_id}, {name == "sys_enter" ? "id" : "ret", long_id}};
  return true;
}

class TracepointFamily final : public ProbeFamily {
public:
  std::string_view probe_type(const ResolvedProbe &) const override {
    return "kernel_tracepoint";
  }
  // Reached through the kprobe family's "kernel" root (kernel.trace).
  std::vector<std::string_view> roots() const override { return {}; }
  std::vector<PointShape> shapes() const override { return {}; }

  bool resolve(const ResolveEnv &env, ast::ProbeDecl &decl, ast::ProbePoint &point,
               std::vector<ResolvedProbe> &out, Diagnostics &diag) const override {
    const auto &cs = point.components;
    const ast::StringLit *arg = cs.size() > 1 ? string_arg(cs[1]) : nullptr;
    if (!arg) {
      diag.error(cs.size() > 1 ? cs[1].loc : cs[0].loc,
                 "expected trace(\"[SYSTEM:]NAME\") in '" + probe_point_string(point) + "'");
      return false;
    }
    if (cs.size() > 2) {
      diag.error(cs[2].loc, "unexpected '" + cs[2].functor + "' in '" +
                                probe_point_string(point) + "'");
      return false;
    }
    std::string system_glob = "*", name_glob = arg->value;
    if (size_t colon = arg->value.find(':'); colon != std::string::npos) {
      system_glob = arg->value.substr(0, colon);
      name_glob = arg->value.substr(colon + 1);
    }
    bool wild = lang::has_glob(arg->value);

    std::vector<Resolved> found;
    Resolved builtin;
    if (!wild && builtin_raw_syscall(name_glob, env.target.arch == "i386" ? 4 : 8, builtin) &&
        (system_glob == "*" || system_glob == builtin.system)) {
      found.push_back(builtin);
    } else {
      std::string error = "tracepoints are not read here";
      const tracequery::Catalog *cat =
          env.tracepoints ? env.tracepoints->of(env.target,
                                                lang::has_glob(system_glob) ? "" : system_glob,
                                                false, error)
                          : nullptr;
      if (!cat) {
        if (!point.optional)
          diag.error(arg->loc, "cannot list the tracepoints of kernel " + env.target.release +
                                   ": " + error);
        return point.optional;
      }
      for (const tracequery::Tracepoint &tp : cat->tracepoints()) {
        if (!lang::glob_match(system_glob, tp.system) ||
            !lang::glob_match(name_glob, tp.name))
          continue;
        const tracequery::TracepointProto *p = cat->proto(tp, error);
        if (!p) {
          if (!wild && !point.optional)
            diag.error(arg->loc, "cannot read tracepoint '" + tp.system + ":" + tp.name +
                                     "': " + error);
          continue;
        }
        Resolved r{tp.system, tp.name, p->types, p->args};
        std::string why;
        if (!declarable(r, why)) {
          if (!wild && !point.optional)
            diag.error(arg->loc, "cannot probe tracepoint '" + tp.system + ":" + tp.name +
                                     "': " + why);
          continue;
        }
        found.push_back(std::move(r));
      }
      if (found.empty()) {
        if (!point.optional && diag.errors() == 0)
          diag.error(arg->loc, "no tracepoint of the target kernel matches '" +
                                   arg->value + "'" + suggestion(*cat, name_glob));
        if (!point.optional)
          return false;
      }
    }
    for (Resolved &r : found) {
      std::string full = r.system + ":" + r.name;
      ast::ProbePoint *p = full == arg->value ? &point : with_string_arg(point, 1, full);
      ResolvedProbe rp = make_resolved(decl, *p, this);
      rp.scope = scope_of(r);
      rp.c_fields = ".name = " + codegen::c_string_literal(r.name) +
                    ", .func = (void *)" + function_name(r) +
                    ", .optional = " + (wild || point.optional ? "true" : "false");
      out.push_back(std::move(rp));
    }
    return !found.empty() || point.optional;
  }

  std::vector<ContextVar> context_vars(const ResolvedProbe &probe) const override {
    std::vector<ContextVar> vars;
    if (!probe.scope)
      return vars;
    for (const debuginfo::TargetVar &v : probe.scope->vars)
      vars.push_back({"$" + v.name, ast::Type::Long});
    return vars;
  }

  void emit(codegen::ModuleWriter &w,
            const std::vector<const ResolvedProbe *> &probes) const override {
    // One probe function per tracepoint, however many probes use it.
    std::set<std::string> done;
    for (const ResolvedProbe *rp : probes) {
      std::string full = string_arg(rp->point->components[1])->value; // SYSTEM:NAME
      size_t colon = full.find(':');
      Resolved r{full.substr(0, colon), full.substr(colon + 1), rp->scope->types, {}};
      for (const debuginfo::TargetVar &v : rp->scope->vars)
        r.args.push_back({v.name, v.type});
      if (done.insert(function_name(r)).second)
        emit_probe_function(w.out(), r);
    }
    w.emit_probe_table("TRACEPOINT", "struct stp_tracepoint", probes);
  }

private:
  static bool declarable(const Resolved &r, std::string &why) {
    for (const auto &a : r.args)
      if (c_arg_type(*r.types, a.type).empty()) {
        why = "its argument '" + a.name + "' (" + r.types->c_name(a.type) +
              ") is passed by value";
        return false;
      }
    return true;
  }

  static std::string function_name(const Resolved &r) {
    std::string n = "stp_tp_" + r.system + "__" + r.name;
    for (char &c : n)
      if (!isalnum(static_cast<unsigned char>(c)))
        c = '_';
    return n;
  }

  static std::shared_ptr<const debuginfo::TargetScope> scope_of(const Resolved &r) {
    auto s = std::make_shared<debuginfo::TargetScope>();
    s->types = r.types;
    s->source = "tracepoint query";
    for (size_t i = 0; i < r.args.size(); ++i) {
      debuginfo::TargetVar v;
      v.name = r.args[i].name;
      v.type = r.args[i].type;
      v.parameter = true;
      v.loc.kind = debuginfo::VarLocation::Value;
      v.loc.c_expr = value_expr(c_arg_type(*r.types, v.type), i);
      s->vars.push_back(std::move(v));
    }
    return s;
  }

  // static void stp_tp_sched__sched_switch(void *data, bool a0, void *a1, ...)
  // { u64 args[] = { ... }; stp_tracepoint_fire(data, args); }
  static void emit_probe_function(codegen::Emitter &out, const Resolved &r) {
    std::string params = "void *data", values;
    std::string proto;
    for (size_t i = 0; i < r.args.size(); ++i) {
      std::string t = c_arg_type(*r.types, r.args[i].type);
      std::string a = "a" + std::to_string(i);
      params += ", " + t + (t.back() == '*' ? "" : " ") + a;
      values += (values.empty() ? "" : ", ") +
                (t == "void *" ? "(u64)(unsigned long)" + a : "(u64)" + a);
      std::string type = r.types->c_name(r.args[i].type);
      proto += (proto.empty() ? "" : ", ") + type + (type.back() == '*' ? "" : " ") +
               r.args[i].name;
    }
    out.blank();
    out.line("/* " + r.system + ":" + r.name + "(" + proto + ") */");
    out.open("static void " + function_name(r) + "(" + params + ")");
    if (r.args.empty()) {
      out.line("stp_tracepoint_fire(data, NULL);");
    } else {
      out.line("u64 args[] = { " + values + " };");
      out.line("stp_tracepoint_fire(data, args);");
    }
    out.close();
  }

  // " (did you mean 'sched_switch'?)" for a misspelt exact name.
  static std::string suggestion(const tracequery::Catalog &cat, const std::string &name) {
    if (lang::has_glob(name))
      return "";
    std::string best;
    size_t best_d = 4;
    for (const tracequery::Tracepoint &tp : cat.tracepoints()) {
      size_t d = edit_distance(name, tp.name, best_d);
      if (d < best_d) {
        best_d = d;
        best = tp.system + ":" + tp.name;
      }
    }
    return best.empty() ? "" : " (did you mean '" + best + "'?)";
  }

  // Levenshtein distance, giving up (returning `limit`) once above it.
  static size_t edit_distance(const std::string &a, const std::string &b, size_t limit) {
    if ((a.size() > b.size() ? a.size() - b.size() : b.size() - a.size()) >= limit)
      return limit;
    std::vector<size_t> prev(b.size() + 1), cur(b.size() + 1);
    for (size_t j = 0; j <= b.size(); ++j)
      prev[j] = j;
    for (size_t i = 1; i <= a.size(); ++i) {
      cur[0] = i;
      size_t row_min = cur[0];
      for (size_t j = 1; j <= b.size(); ++j) {
        cur[j] = std::min({prev[j] + 1, cur[j - 1] + 1, prev[j - 1] + (a[i - 1] != b[j - 1] ? 1u : 0u)});
        row_min = std::min(row_min, cur[j]);
      }
      if (row_min >= limit)
        return limit;
      std::swap(prev, cur);
    }
    return std::min(prev[b.size()], limit);
  }
};

} // namespace

const ProbeFamily &tracepoint_family() {
  static const TracepointFamily family;
  return family;
}

} // namespace stap::probes
