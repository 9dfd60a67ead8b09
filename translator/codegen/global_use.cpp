#include "codegen/global_use.h"

#include "ast/visitor.h"

namespace stap::codegen {
namespace {

class Collector : public ast::Visitor {
public:
  Collector(GlobalUseAnalysis &a, GlobalUse &use) : analysis_(a), use_(use) {}

  // Reading statistics merges every CPU's share: that excludes `<<<`,
  // so it takes the write lock. `<<<` itself takes only the read lock:
  // it changes only this CPU's share.
  void visit(ast::SymbolExpr &n) override {
    if (n.global && n.global->entry_slot)
      return; // per kretprobe instance: nothing shared to lock
    if (n.global && n.global->type == ast::Type::Stats)
      use_[n.global] = true;
    else if (n.global)
      use_.emplace(n.global, false);
  }
  void visit(ast::AssignExpr &n) override {
    if (n.op == ast::AssignOp::Aggregate) {
      ast::Expr *base = n.target;
      if (auto *ix = dynamic_cast<ast::IndexExpr *>(n.target)) {
        for (ast::Expr *k : ix->indexes)
          visit_expr(k);
        base = ix->base;
      }
      if (auto *s = dynamic_cast<ast::SymbolExpr *>(base); s && s->global)
        use_.emplace(s->global, false);
      visit_expr(n.value);
      return;
    }
    Visitor::visit(n);
    written(n.target);
  }
  void visit(ast::IncDecExpr &n) override {
    Visitor::visit(n);
    written(n.operand);
  }
  void visit(ast::DeleteStmt &n) override {
    Visitor::visit(n);
    written(n.target);
  }
  void visit(ast::CallExpr &n) override {
    Visitor::visit(n);
    if (n.callee)
      for (const auto &[g, w] : analysis_.of_function(*n.callee))
        use_[g] = use_[g] || w;
  }

private:
  void written(ast::Expr *e) {
    if (auto *ix = dynamic_cast<ast::IndexExpr *>(e))
      e = ix->base;
    if (auto *s = dynamic_cast<ast::SymbolExpr *>(e); s && s->global && !s->global->entry_slot)
      use_[s->global] = true;
  }
  GlobalUseAnalysis &analysis_;
  GlobalUse &use_;
};

} // namespace

const GlobalUse &GlobalUseAnalysis::of_function(ast::FunctionDecl &fn) {
  auto it = done_.find(&fn);
  if (it != done_.end())
    return it->second; // finished, or in progress for a recursive call
  done_[&fn]; // in progress: a recursive call sees what is known so far
  GlobalUse found;
  Collector c(*this, found);
  c.visit_stmt(fn.body);
  done_[&fn] = found;
  return done_[&fn];
}

GlobalUse GlobalUseAnalysis::of_body(ast::Stmt *body) {
  GlobalUse use;
  Collector c(*this, use);
  c.visit_stmt(body);
  return use;
}

} // namespace stap::codegen
