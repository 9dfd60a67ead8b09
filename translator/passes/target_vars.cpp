#include "passes/target_vars.h"

#include "ast/visitor.h"
#include "debuginfo/access_path.h"
#include "debuginfo/kernel_debuginfo.h"
#include "dwarf/globals.h"
#include "dwarf/kernel_debuginfo.h"
#include "dwarf/type_reader.h"
#include "probes/user_dwarf.h"

#include <vector>

namespace stap {
namespace {

using debuginfo::AccessError;

// "has no target variables" / "has only $a, $b"
std::string what_it_has(const std::vector<probes::ContextVar> &vars) {
  std::string s;
  for (const auto &v : vars)
    s += (s.empty() ? "" : ", ") + v.name;
  return s.empty() ? "has no target variables" : "has only " + s;
}

// A point without debuginfo types: what its family provides by name
// (`$return` as a long at function returns).
std::optional<ast::Type> context_var_type(const probes::ResolvedProbe &rp, const ast::TargetExpr &n,
                                          AccessError &err) {
  auto var = probes::find_context_var(rp, n.name);
  if (!var) {
    if (n.name == "$return")
      err = {n.loc, "'$return' is only available in function return probes, not in '" + rp.pp +
                        "'"};
    else if (rp.scope && !rp.scope->missing_reason.empty())
      err = {n.loc, "cannot read '" + n.name + "' at '" + rp.pp + "': " +
                        rp.scope->missing_reason};
    else
      err = {n.loc, "unresolved target variable '" + n.name + "': probe point '" + rp.pp + "' " +
                        what_it_has(rp.family->context_vars(rp))};
    return std::nullopt;
  }
  if (!n.components.empty() || n.addressof) {
    err = {n.loc, "'" + n.name + "' is a " + ast::type_name(var->type) +
                      " here (no debuginfo): it has no members and no address"};
    return std::nullopt;
  }
  return var->type;
}

} // namespace

ast::Type script_type(debuginfo::Use u) {
  return u == debuginfo::Use::Scalar || u == debuginfo::Use::Address ? ast::Type::Long
                                                                     : ast::Type::String;
}

namespace {

// Index expressions are checked as script code; here they only stand in.
std::string no_index_c(ast::Expr *) { return "0"; }

class TargetVarTyper : public ast::Visitor {
public:
  TargetVarTyper(const probes::ResolvedProbe &where, bool skip_bad, Diagnostics &d)
      : where_(where), skip_bad_(skip_bad), diag_(d) {}
  void visit(ast::TargetExpr &n) override {
    Visitor::visit(n);
    AccessError err;
    std::optional<ast::Type> t = target_type(where_, n, err);
    if (!t && skip_bad_) {
      // SystemTap 4.8's --skip-badvars: 0 instead, with a warning.
      if (n.substituted_at.empty()) // once per use, not per point
        diag_.warning(n.loc, "bad $context variable being substituted with literal 0: " +
                                 err.message);
      n.substituted_at.push_back(where_.scope.get());
      t = ast::Type::Long;
    }
    if (!t) {
      diag_.error(err.loc, err.message);
      return;
    }
    if (n.type != ast::Type::Unknown && n.type != *t) {
      diag_.error(n.loc, "'" + n.name + "' is a " + ast::type_name(*t) + " at '" + where_.pp +
                             "' but a " + ast::type_name(n.type) +
                             " at another point of this probe");
      return;
    }
    n.type = *t;
    // The family's own reading, where it gives one (an SDT marker's $argN,
    // a uprobe's $return): the same at every point of the body.
    std::optional<probes::ContextVar> var;
    if (!(where_.scope && where_.scope->types))
      var = probes::find_context_var(where_, n.name);
    if (var && !var->c_expr.empty()) {
      if (!n.c_expr.empty() && n.c_expr != var->c_expr) {
        diag_.error(n.loc, "'" + n.name + "' is read differently at '" + where_.pp +
                               "' than at the other points of this probe: give it a probe of "
                               "its own");
        return;
      }
      n.c_expr = var->c_expr;
    }
  }

private:
  const probes::ResolvedProbe &where_;
  bool skip_bad_;
  Diagnostics &diag_;
};

// @cast in probes and functions alike: the type comes from the module's
// debuginfo, not from the probe point.
class CastTyper : public ast::Visitor {
public:
  CastTyper(const probes::ResolveEnv &env, Diagnostics &d) : env_(env), diag_(d) {}
  void visit(ast::CastExpr &n) override {
    Visitor::visit(n);
    if (n.type != ast::Type::Unknown && n.types)
      return; // a body shared by several points: typed once
    AccessError err;
    if (auto t = cast_type(env_, n, err))
      n.type = *t;
    else
      diag_.error(err.loc, err.message);
  }

private:
  const probes::ResolveEnv &env_;
  Diagnostics &diag_;
};

// Functions run in no probe's context.
class NoTargetVars : public ast::Visitor {
public:
  NoTargetVars(const ast::FunctionDecl &fn, Diagnostics &d) : fn_(fn), diag_(d) {}
  void visit(ast::TargetExpr &n) override {
    diag_.error(n.loc, "unresolved target variable '" + n.name + "' in function '" + fn_.name +
                           "': only probe handlers have target variables");
  }

private:
  const ast::FunctionDecl &fn_;
  Diagnostics &diag_;
};

} // namespace

std::optional<ast::Type> target_type(const probes::ResolvedProbe &rp, const ast::TargetExpr &n,
                                     AccessError &err) {
  const debuginfo::TargetScope *scope = rp.scope.get();
  if (!scope || !scope->types)
    return context_var_type(rp, n, err);
  auto r = target_result(rp, n, err);
  if (!r)
    return std::nullopt;
  return r->is_list ? ast::Type::String : script_type(r->use);
}

std::optional<TypedResult> typed_chain(std::shared_ptr<const debuginfo::TypeTable> types,
                                       const debuginfo::Place &start, const std::string &label,
                                       const std::vector<ast::TargetComponent> &components,
                                       bool addressof, SourceLoc loc, AccessError &err) {
  debuginfo::WalkContext ctx{*types, no_index_c, "\"\""};
  auto end = debuginfo::walk(ctx, start, label, components, err);
  if (!end)
    return std::nullopt;
  std::string pretty;
  if (!components.empty() && components.back().kind == ast::TargetComponent::Pretty)
    pretty = components.back().name;
  auto use = debuginfo::classify(*types, *end, debuginfo::chain_name(label, components),
                                 addressof, pretty, loc, err);
  if (!use)
    return std::nullopt;
  return TypedResult{std::move(types), *end, *use, false};
}

std::optional<TypedResult> target_result(const probes::ResolvedProbe &rp,
                                         const ast::TargetExpr &n, AccessError &err) {
  const debuginfo::TargetScope *scope = rp.scope.get();
  if (!scope || !scope->types) {
    err = {n.loc, "'" + n.name + "' has no debuginfo type at '" + rp.pp + "'"};
    return std::nullopt;
  }
  if ((n.name == "$return" || n.name == "$$return") && !rp.is_return) {
    err = {n.loc, "'" + n.name + "' is only available in function return probes, not in '" +
                      rp.pp + "'"};
    return std::nullopt;
  }
  if (n.name == "$return" && !scope->return_value) {
    err = {n.loc, "'$return' is not available in '" + rp.pp + "': the function returns void"};
    return std::nullopt;
  }
  std::string why;
  auto ref = debuginfo::find_target(*scope, n.name, rp.pp, why);
  if (!ref) {
    err = {n.loc, why};
    return std::nullopt;
  }
  if (ref->is_list) {
    bool plain = n.components.empty() ||
                 (n.components.size() == 1 && n.components[0].kind == ast::TargetComponent::Pretty);
    if (!plain || n.addressof) {
      err = {n.loc, "'" + n.name + "' is a string: it has no members, elements or address"};
      return std::nullopt;
    }
    TypedResult r;
    r.types = scope->types;
    r.is_list = true;
    return r;
  }
  auto start = debuginfo::start_place(*ref->var);
  if (!start) {
    const std::string &reason = ref->var->loc.why_unavailable;
    err = {n.loc, "'" + n.name + "' is not available at '" + rp.pp + "': " +
                      (reason.empty() ? std::string("optimized out") : reason)};
    return std::nullopt;
  }
  return typed_chain(scope->types, *start, n.name, n.components, n.addressof, n.loc, err);
}

std::optional<ast::Type> cast_type(const probes::ResolveEnv &env, ast::CastExpr &n,
                                   AccessError &err) {
  auto r = cast_result(env, n, err);
  if (!r)
    return std::nullopt;
  return script_type(r->use);
}

namespace {

// @var's node bound to variable `v`, whose type is in `types`.
void bind_var(ast::CastExpr &n, std::shared_ptr<const debuginfo::TypeTable> types,
              const debuginfo::TargetVar &v) {
  n.types = std::move(types);
  n.type_id = v.type;
  n.var_address = v.loc.kind == debuginfo::VarLocation::Address;
  n.var_c = n.var_address ? "((unsigned long)(" + v.loc.c_expr + "))" : v.loc.c_expr;
}

// A module argument naming a user program or library by its path
// (@cast(p, "struct rec", "/usr/bin/prog")), as SystemTap reads it.
bool names_user_object(const std::string &module) {
  return module.find('/') != std::string::npos;
}

std::optional<probes::UserObjectDwarf> open_user_object(const probes::ResolveEnv &env,
                                                        const std::string &label,
                                                        const std::string &path,
                                                        const SourceLoc &loc, AccessError &err) {
  std::string why = "user-space objects are not available here";
  auto obj = env.user ? probes::user_object_dwarf(*env.user, path, why) : std::nullopt;
  if (!obj)
    err = {loc, label + " in '" + path + "': " + why};
  return obj;
}

// @cast(p, "T", "/path"): T from the object's DWARF; the chain reads the
// current task's user memory.
bool bind_user_cast(const probes::ResolveEnv &env, ast::CastExpr &n, const std::string &path,
                    const std::string &name, AccessError &err) {
  auto obj = open_user_object(env, "@cast to '" + n.type_or_var + "'", path, n.loc, err);
  if (!obj)
    return false;
  auto types = probes::user_object_types(*env.user, *obj);
  auto id = types->find(name);
  if (!id) {
    err = {n.loc, "type '" + n.type_or_var + "' not found in the debuginfo of " +
                      obj->target_path + " (" + obj->file->path() + ")"};
    return false;
  }
  n.types = types;
  n.type_id = *id;
  n.user = true;
  return true;
}

// @var("name[@file]", "/path"): a global or file-static variable of the
// object, at its link-time address moved by where the current process
// loaded the object.
bool bind_user_var(const probes::ResolveEnv &env, ast::CastExpr &n, const std::string &path,
                   const std::string &label, AccessError &err) {
  auto obj = open_user_object(env, label, path, n.loc, err);
  if (!obj)
    return false;
  const arch::Arch &arch = obj->compat32 && env.arch.compat ? *env.arch.compat : env.arch;
  dwarf::ScopeOptions opts(arch);
  opts.user = true;
  opts.address = [&](uint64_t a, std::string &) -> std::optional<std::string> {
    return probes::user_static_address(*obj, a);
  };
  std::string why;
  auto v = dwarf::find_global(*obj->file, n.type_or_var, opts, why);
  if (!v) {
    err = {n.loc, "unable to find global '" + n.type_or_var + "' for " + label + ": " + why};
    return false;
  }
  bind_var(n, obj->file->types().table(), *v);
  n.user = true;
  return true;
}

// @var("name[@file]"[, "module"]): a global or file-static variable of
// the kernel or a module, from its DWARF (dwarf/globals.h).
std::optional<TypedResult> var_result(const probes::ResolveEnv &env, ast::CastExpr &n,
                                      AccessError &err) {
  std::string module = n.module.value_or("kernel");
  if (auto lt = module.find('<'); lt != std::string::npos)
    module = module.substr(0, lt);
  if (module.empty())
    module = "kernel";
  std::string label = "@var(\"" + n.type_or_var + "\")";
  if (!n.types && names_user_object(module) && !bind_user_var(env, n, module, label, err))
    return std::nullopt;
  if (!n.types) {
    std::string why;
    dwarf::DebugFile *file = nullptr;
    if (env.kernel_dwarf)
      file = module == "kernel" ? env.kernel_dwarf->vmlinux(why)
                                : env.kernel_dwarf->module(module, why);
    else
      why = "no debuginfo is searched here";
    if (!file || !file->has_dwarf()) {
      std::string btf = module == "kernel" ? " (the kernel's BTF describes only per-cpu "
                                             "variables, which @var does not read)"
                                           : "";
      err = {n.loc, label + " needs the DWARF of " + module + ": " +
                        (why.empty() ? file ? "no DWARF in " + file->path() : "not found" : why) +
                        btf};
      return std::nullopt;
    }
    auto v = dwarf::find_global(*file, module == "kernel" ? "" : dwarf::module_name_of(module),
                                n.type_or_var, env.arch, why);
    if (!v) {
      err = {n.loc, "unable to find global '" + n.type_or_var + "' for " + label + ": " + why};
      return std::nullopt;
    }
    bind_var(n, file->types().table(), *v);
  }
  debuginfo::Place start{n.type_id, n.var_address, n.var_c, n.user};
  return typed_chain(n.types, start, label, n.components, n.addressof, n.loc, err);
}

} // namespace

std::optional<TypedResult> cast_result(const probes::ResolveEnv &env, ast::CastExpr &n,
                                       AccessError &err) {
  if (n.kind == ast::CastExpr::Var)
    return var_result(env, n, err);
  std::string module = n.module.value_or("kernel");
  // "kernel<linux/fs.h>": SystemTap compiles the header for its types;
  // the kernel's own debuginfo has them all.
  if (auto lt = module.find('<'); lt != std::string::npos)
    module = module.substr(0, lt);
  if (module.empty())
    module = "kernel";
  std::string name = n.type_or_var;
  while (!name.empty() && (name.back() == ' ' || name.back() == '*'))
    name.pop_back(); // "struct file *": the walk starts at the pointed-to object
  bool pointer = name.size() != n.type_or_var.size() &&
                 n.type_or_var.find('*') != std::string::npos;
  if (names_user_object(module)) {
    if (!n.types && !bind_user_cast(env, n, module, name, err))
      return std::nullopt;
  } else {
    if (!env.kernel_debuginfo) {
      err = {n.loc, "@cast needs the kernel's debuginfo, which is not available here"};
      return std::nullopt;
    }
    std::string why;
    const debuginfo::ObjectTypes *obj = env.kernel_debuginfo->object(module, why);
    if (!obj) {
      err = {n.loc, "@cast to '" + n.type_or_var + "': " + why};
      return std::nullopt;
    }
    auto id = obj->types->find(name);
    if (!id) {
      err = {n.loc, "type '" + n.type_or_var + "' not found in the debuginfo of " + module +
                        " (" + obj->source + ")"};
      return std::nullopt;
    }
    n.types = obj->types;
    n.type_id = *id;
  }
  if (pointer) {
    err = {n.loc, "@cast to a pointer type ('" + n.type_or_var +
                      "') is not supported: cast to '" + name + "'"};
    return std::nullopt;
  }
  // @cast(p, "T") is the object of type T at address p.
  debuginfo::Place start{n.type_id, true, "((unsigned long)0)", n.user};
  std::string label = "@cast(..., \"" + n.type_or_var + "\")";
  return typed_chain(n.types, start, label, n.components, n.addressof, n.loc, err);
}

void resolve_target_vars(const probes::ResolveEnv &env, Program &program, Diagnostics &diag) {
  // A body shared by several points must suit each: it is checked against
  // each in turn until one does not fit, so each mistake is reported once.
  CastTyper casts(env, diag);
  for (auto &[decl, points] : points_by_decl(program)) {
    if (!decl->body)
      continue;
    for (const probes::ResolvedProbe *rp : points) {
      unsigned before = diag.errors();
      TargetVarTyper t(*rp, env.skip_badvars, diag);
      decl->body->accept(t);
      if (diag.errors() != before)
        break;
    }
    decl->body->accept(casts);
  }
  for (ast::FunctionDecl *fn : program.functions)
    if (fn->body) {
      NoTargetVars check(*fn, diag);
      fn->body->accept(check);
      fn->body->accept(casts);
    }
}

} // namespace stap
