#include "passes/target_vars.h"

#include "ast/visitor.h"

#include <map>
#include <vector>

namespace stap {
namespace {

class TargetVarTyper : public ast::Visitor {
public:
  TargetVarTyper(const probes::ResolvedProbe &where, Diagnostics &d) : where_(where), diag_(d) {}
  void visit(ast::TargetExpr &n) override {
    Visitor::visit(n);
    if (n.name != "$return")
      return;
    if (!where_.is_return) {
      diag_.error(n.loc, "'$return' is only available in function return probes, not in '" +
                             where_.pp + "'");
      return;
    }
    if (!n.components.empty() || n.addressof) {
      diag_.error(n.loc, "'$return' is a long here (no debuginfo): it has no members and no "
                         "address");
      return;
    }
    n.type = ast::Type::Long;
  }

private:
  const probes::ResolvedProbe &where_;
  Diagnostics &diag_;
};

} // namespace

void resolve_target_vars(Program &program, Diagnostics &diag) {
  // A body shared by several points must suit each; one report per body.
  std::vector<ast::ProbeDecl *> order;
  std::map<ast::ProbeDecl *, const probes::ResolvedProbe *> first_unfit;
  for (const auto &rp : program.probes) {
    auto [it, fresh] = first_unfit.emplace(rp.decl, &rp);
    if (fresh)
      order.push_back(rp.decl);
    else if (it->second->is_return && !rp.is_return)
      it->second = &rp;
  }
  for (ast::ProbeDecl *decl : order) {
    TargetVarTyper t(*first_unfit[decl], diag);
    if (decl->body)
      decl->body->accept(t);
  }
}

} // namespace stap
