#include "passes/target_vars.h"

#include "ast/visitor.h"

#include <map>
#include <vector>

namespace stap {
namespace {

// "has no target variables" / "has only $a, $b"
std::string what_it_has(const std::vector<probes::ContextVar> &vars) {
  std::string s;
  for (const auto &v : vars)
    s += (s.empty() ? "" : ", ") + v.name;
  return s.empty() ? "has no target variables" : "has only " + s;
}

class TargetVarTyper : public ast::Visitor {
public:
  TargetVarTyper(const probes::ResolvedProbe &where, Diagnostics &d) : where_(where), diag_(d) {}
  void visit(ast::TargetExpr &n) override {
    Visitor::visit(n);
    auto var = probes::find_context_var(where_, n.name);
    if (!var) {
      if (n.name == "$return")
        diag_.error(n.loc, "'$return' is only available in function return probes, not in '" +
                               where_.pp + "'");
      else
        diag_.error(n.loc, "unresolved target variable '" + n.name + "': probe point '" +
                               where_.pp + "' " + what_it_has(where_.family->context_vars(where_)));
      return;
    }
    if (!n.components.empty() || n.addressof) {
      diag_.error(n.loc, "'" + n.name + "' is a " + ast::type_name(var->type) +
                             " here (no debuginfo): it has no members and no address");
      return;
    }
    n.type = var->type;
  }

private:
  const probes::ResolvedProbe &where_;
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

void resolve_target_vars(Program &program, Diagnostics &diag) {
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
  }
  for (ast::FunctionDecl *fn : program.functions)
    if (fn->body) {
      NoTargetVars check(*fn, diag);
      fn->body->accept(check);
    }
}

} // namespace stap
