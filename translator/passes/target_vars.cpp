#include "passes/target_vars.h"

#include "ast/visitor.h"
#include "debuginfo/access_path.h"
#include "debuginfo/kernel_debuginfo.h"

#include <map>
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

ast::Type script_type(debuginfo::Use u) {
  return u == debuginfo::Use::Scalar || u == debuginfo::Use::Address ? ast::Type::Long
                                                                     : ast::Type::String;
}

// Index expressions are checked as script code; here they only stand in.
std::string no_index_c(ast::Expr *) { return "0"; }

class TargetVarTyper : public ast::Visitor {
public:
  TargetVarTyper(const probes::ResolvedProbe &where, Diagnostics &d) : where_(where), diag_(d) {}
  void visit(ast::TargetExpr &n) override {
    Visitor::visit(n);
    AccessError err;
    std::optional<ast::Type> t = target_type(where_, n, err);
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
    return ast::Type::String;
  }
  auto start = debuginfo::start_place(*ref->var);
  if (!start) {
    const std::string &reason = ref->var->loc.why_unavailable;
    err = {n.loc, "'" + n.name + "' is not available at '" + rp.pp + "': " +
                      (reason.empty() ? std::string("optimized out") : reason)};
    return std::nullopt;
  }
  debuginfo::WalkContext ctx{*scope->types, no_index_c, "\"\""};
  auto end = debuginfo::walk(ctx, *start, n.name, n.components, err);
  if (!end)
    return std::nullopt;
  std::string pretty;
  if (!n.components.empty() && n.components.back().kind == ast::TargetComponent::Pretty)
    pretty = n.components.back().name;
  auto use = debuginfo::classify(*scope->types, *end, debuginfo::chain_name(n.name, n.components),
                                 n.addressof, pretty, n.loc, err);
  if (!use)
    return std::nullopt;
  return script_type(*use);
}

std::optional<ast::Type> cast_type(const probes::ResolveEnv &env, ast::CastExpr &n,
                                   AccessError &err) {
  if (n.kind == ast::CastExpr::Var) {
    err = {n.loc, "@var(\"" + n.type_or_var + "\") needs DWARF debuginfo, which is not "
                                              "supported yet"};
    return std::nullopt;
  }
  std::string module = n.module.value_or("kernel");
  // "kernel<linux/fs.h>": SystemTap compiles the header for its types;
  // the kernel's own debuginfo has them all.
  if (auto lt = module.find('<'); lt != std::string::npos)
    module = module.substr(0, lt);
  if (module.empty())
    module = "kernel";
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
  std::string name = n.type_or_var;
  while (!name.empty() && (name.back() == ' ' || name.back() == '*'))
    name.pop_back(); // "struct file *": the walk starts at the pointed-to object
  bool pointer = name.size() != n.type_or_var.size() &&
                 n.type_or_var.find('*') != std::string::npos;
  auto id = obj->types->find(name);
  if (!id) {
    err = {n.loc, "type '" + n.type_or_var + "' not found in the debuginfo of " + module +
                      " (" + obj->source + ")"};
    return std::nullopt;
  }
  n.types = obj->types;
  n.type_id = *id;
  if (pointer) {
    err = {n.loc, "@cast to a pointer type ('" + n.type_or_var +
                      "') is not supported: cast to '" + name + "'"};
    return std::nullopt;
  }
  // @cast(p, "T") is the object of type T at address p.
  debuginfo::Place start{*id, true, "((unsigned long)0)", false};
  debuginfo::WalkContext ctx{*n.types, no_index_c, "\"\""};
  std::string label = "@cast(..., \"" + n.type_or_var + "\")";
  auto end = debuginfo::walk(ctx, start, label, n.components, err);
  if (!end)
    return std::nullopt;
  std::string pretty;
  if (!n.components.empty() && n.components.back().kind == ast::TargetComponent::Pretty)
    pretty = n.components.back().name;
  auto use = debuginfo::classify(*n.types, *end, debuginfo::chain_name(label, n.components),
                                 n.addressof, pretty, n.loc, err);
  if (!use)
    return std::nullopt;
  return script_type(*use);
}

void resolve_target_vars(const probes::ResolveEnv &env, Program &program, Diagnostics &diag) {
  // A body shared by several points must suit each: it is checked against
  // each in turn until one does not fit, so each mistake is reported once.
  std::vector<ast::ProbeDecl *> order;
  std::map<ast::ProbeDecl *, std::vector<const probes::ResolvedProbe *>> users;
  for (const auto &rp : program.probes) {
    auto &u = users[rp.decl];
    if (u.empty())
      order.push_back(rp.decl);
    u.push_back(&rp);
  }
  CastTyper casts(env, diag);
  for (ast::ProbeDecl *decl : order) {
    if (!decl->body)
      continue;
    for (const probes::ResolvedProbe *rp : users[decl]) {
      unsigned before = diag.errors();
      TargetVarTyper t(*rp, diag);
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
