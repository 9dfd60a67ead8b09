#include "passes/return_params.h"

#include "ast/rewrite.h"


namespace stap {
namespace {

class WrapParameters : public ast::Rewriter {
public:
  WrapParameters(ast::Arena &a, std::vector<const debuginfo::TargetScope *> scopes)
      : arena_(a), scopes_(std::move(scopes)) {}

  // What is already inside @entry stays as written.
  void visit(ast::AtOpExpr &n) override {
    if (n.name != "entry")
      Rewriter::visit(n);
  }

  // A written parameter stays itself: check_target_writes reports it
  // (a return probe may write only $return).
  void visit(ast::AssignExpr &n) override {
    if (!dynamic_cast<ast::TargetExpr *>(n.target))
      n.target = expr(n.target);
    n.value = expr(n.value);
  }
  void visit(ast::IncDecExpr &n) override {
    if (!dynamic_cast<ast::TargetExpr *>(n.operand))
      n.operand = expr(n.operand);
  }

protected:
  using Rewriter::rewrite;
  ast::Expr *rewrite(ast::Expr *e) override {
    auto *t = dynamic_cast<ast::TargetExpr *>(e);
    if (!t || !is_parameter(t->name))
      return e;
    auto *entry = arena_.make<ast::AtOpExpr>(t->loc);
    entry->name = "entry";
    entry->args.push_back(t);
    return entry;
  }

private:
  // A parameter at any of the points (a wildcard's functions differ).
  bool is_parameter(const std::string &name) const {
    for (const debuginfo::TargetScope *s : scopes_) {
      if (name == "$$parms" || name == "$$vars") {
        if (!s->vars.empty())
          return true;
        continue;
      }
      const debuginfo::TargetVar *v = name.size() > 1 ? s->find(name.substr(1)) : nullptr;
      if (v && v->parameter)
        return true;
    }
    return false;
  }

  ast::Arena &arena_;
  std::vector<const debuginfo::TargetScope *> scopes_;
};

} // namespace

void parameters_at_entry(Program &program, ast::Arena &arena) {
  for (auto &[decl, points] : points_by_decl(program)) {
    bool all = decl->body != nullptr;
    for (const probes::ResolvedProbe *rp : points)
      all = all && rp->is_return && rp->scope && rp->scope->types;
    if (!all)
      continue;
    std::vector<const debuginfo::TargetScope *> scopes;
    for (const probes::ResolvedProbe *rp : points)
      scopes.push_back(rp->scope.get());
    WrapParameters w(arena, std::move(scopes));
    w.body(decl->body);
  }
}

} // namespace stap
