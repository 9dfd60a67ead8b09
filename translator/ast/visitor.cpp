#include "ast/visitor.h"

namespace stap::ast {

const char *type_name(Type t) {
  switch (t) {
  case Type::Long: return "long";
  case Type::String: return "string";
  case Type::Stats: return "stats";
  case Type::Unknown: break;
  }
  return "unknown";
}

#include "ast/accept.inc"

void Visitor::visit(NumberLit &) {}
void Visitor::visit(StringLit &) {}
void Visitor::visit(UnaryExpr &n) { visit_expr(n.operand); }
void Visitor::visit(IncDecExpr &n) { visit_expr(n.operand); }
void Visitor::visit(BinaryExpr &n) { visit_expr(n.left); visit_expr(n.right); }
void Visitor::visit(TernaryExpr &n) {
  visit_expr(n.cond); visit_expr(n.then_expr); visit_expr(n.else_expr);
}
void Visitor::visit(AssignExpr &n) { visit_expr(n.target); visit_expr(n.value); }
void Visitor::visit(SymbolExpr &) {}
void Visitor::visit(IndexExpr &n) {
  visit_expr(n.base);
  for (Expr *e : n.indexes) visit_expr(e);
}
void Visitor::visit(CallExpr &n) { for (Expr *e : n.args) visit_expr(e); }
void Visitor::visit(InExpr &n) {
  for (Expr *e : n.keys) visit_expr(e);
  visit_expr(n.array);
}
void Visitor::visit_components(std::vector<TargetComponent> &cs) {
  for (auto &c : cs) visit_expr(c.index);
}
void Visitor::visit(TargetExpr &n) { visit_components(n.components); }
void Visitor::visit(CastExpr &n) { visit_expr(n.operand); visit_components(n.components); }
void Visitor::visit(AutocastExpr &n) {
  visit_expr(n.operand);
  visit_components(n.components);
}
void Visitor::visit(AtOpExpr &n) { for (Expr *e : n.args) visit_expr(e); }
void Visitor::visit(StatExpr &n) { visit_expr(n.stat); visit_expr(n.param); }
void Visitor::visit(HistExpr &n) {
  visit_expr(n.stat);
  for (Expr *e : n.params) visit_expr(e);
}
void Visitor::visit(EmbeddedExpr &) {}

void Visitor::visit(BlockStmt &n) { for (Stmt *s : n.stmts) visit_stmt(s); }
void Visitor::visit(ExprStmt &n) { visit_expr(n.expr); }
void Visitor::visit(NullStmt &) {}
void Visitor::visit(IfStmt &n) {
  visit_expr(n.cond); visit_stmt(n.then_stmt); visit_stmt(n.else_stmt);
}
void Visitor::visit(WhileStmt &n) { visit_expr(n.cond); visit_stmt(n.body); }
void Visitor::visit(ForStmt &n) {
  visit_expr(n.init); visit_expr(n.cond); visit_expr(n.step); visit_stmt(n.body);
}
void Visitor::visit(ForeachStmt &n) {
  if (n.value) visit(*n.value);
  for (SymbolExpr *k : n.keys) visit(*k);
  visit_expr(n.array);
  for (Expr *e : n.slice) visit_expr(e);
  visit_expr(n.limit);
  visit_stmt(n.body);
}
void Visitor::visit(BreakStmt &) {}
void Visitor::visit(ContinueStmt &) {}
void Visitor::visit(NextStmt &) {}
void Visitor::visit(ReturnStmt &n) { visit_expr(n.value); }
void Visitor::visit(DeleteStmt &n) { visit_expr(n.target); }
void Visitor::visit(TryStmt &n) {
  visit_stmt(n.try_block);
  if (n.catch_var) visit(*n.catch_var);
  visit_stmt(n.catch_block);
}
void Visitor::visit(EmbeddedStmt &) {}

void Visitor::visit(VarDecl &) {}
void Visitor::visit(GlobalDecl &n) { visit_expr(n.init); visit_expr(n.size); }
void Visitor::visit(FunctionDecl &n) {
  for (VarDecl *p : n.params) visit(*p);
  visit_stmt(n.body);
}
void Visitor::visit(ProbePoint &n) {
  for (auto &c : n.components) visit_expr(c.arg);
  visit_expr(n.condition);
}
void Visitor::visit(ProbeDecl &n) {
  for (ProbePoint *p : n.points) visit(*p);
  visit_stmt(n.body);
}
void Visitor::visit(ProbeAliasDecl &n) {
  for (ProbePoint *p : n.names) visit(*p);
  for (ProbePoint *p : n.targets) visit(*p);
  visit_stmt(n.body);
  visit_stmt(n.epilogue_body);
}
void Visitor::visit(EmbeddedDecl &) {}

void Visitor::visit_file(File &f) {
  for (Node *d : f.decls) d->accept(*this);
}

} // namespace stap::ast
