#include "ast/rewrite.h"

namespace stap::ast {

Expr *Rewriter::expr(Expr *e) {
  if (!e)
    return nullptr;
  e->accept(*this);
  return rewrite(e);
}

Stmt *Rewriter::stmt(Stmt *s) {
  if (!s)
    return nullptr;
  s->accept(*this);
  return rewrite(s);
}

void Rewriter::components(std::vector<TargetComponent> &cs) {
  for (auto &c : cs)
    c.index = expr(c.index);
}

void Rewriter::visit(UnaryExpr &n) { n.operand = expr(n.operand); }
void Rewriter::visit(IncDecExpr &n) { n.operand = expr(n.operand); }
void Rewriter::visit(BinaryExpr &n) {
  n.left = expr(n.left);
  n.right = expr(n.right);
}
void Rewriter::visit(TernaryExpr &n) {
  n.cond = expr(n.cond);
  n.then_expr = expr(n.then_expr);
  n.else_expr = expr(n.else_expr);
}
void Rewriter::visit(AssignExpr &n) {
  n.target = expr(n.target);
  n.value = expr(n.value);
}
void Rewriter::visit(IndexExpr &n) {
  visit_expr(n.base); // a variable or a histogram: stays what it is
  for (Expr *&e : n.indexes)
    e = expr(e);
}
void Rewriter::visit(CallExpr &n) {
  for (Expr *&e : n.args)
    e = expr(e);
}
void Rewriter::visit(InExpr &n) {
  for (Expr *&e : n.keys)
    e = expr(e);
  visit_expr(n.array);
}
void Rewriter::visit(TargetExpr &n) { components(n.components); }
void Rewriter::visit(CastExpr &n) {
  n.operand = expr(n.operand);
  components(n.components);
}
void Rewriter::visit(AutocastExpr &n) {
  n.operand = expr(n.operand);
  components(n.components);
}
void Rewriter::visit(AtOpExpr &n) {
  for (Expr *&e : n.args)
    e = expr(e);
}
void Rewriter::visit(StatExpr &n) {
  visit_expr(n.stat); // the aggregate itself stays a variable
  n.param = expr(n.param);
}
void Rewriter::visit(HistExpr &n) {
  visit_expr(n.stat);
  for (Expr *&e : n.params)
    e = expr(e);
}

void Rewriter::visit(BlockStmt &n) {
  for (Stmt *&s : n.stmts)
    s = stmt(s);
}
void Rewriter::visit(ExprStmt &n) { n.expr = expr(n.expr); }
void Rewriter::visit(IfStmt &n) {
  n.cond = expr(n.cond);
  n.then_stmt = stmt(n.then_stmt);
  n.else_stmt = stmt(n.else_stmt);
}
void Rewriter::visit(WhileStmt &n) {
  n.cond = expr(n.cond);
  n.body = stmt(n.body);
}
void Rewriter::visit(ForStmt &n) {
  n.init = expr(n.init);
  n.cond = expr(n.cond);
  n.step = expr(n.step);
  n.body = stmt(n.body);
}
void Rewriter::visit(ForeachStmt &n) {
  visit_expr(n.array);
  for (Expr *&e : n.slice)
    e = expr(e);
  n.limit = expr(n.limit);
  n.body = stmt(n.body);
}
void Rewriter::visit(ReturnStmt &n) { n.value = expr(n.value); }
void Rewriter::visit(DeleteStmt &n) { visit_expr(n.target); }
void Rewriter::visit(TryStmt &n) {
  body(n.try_block);
  body(n.catch_block);
}

} // namespace stap::ast
