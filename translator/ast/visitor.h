// Visitor over the AST. The default visit of each node visits its children,
// so a pass overrides only the nodes it cares about and calls
// Visitor::visit(node) where it wants the traversal to continue.
#pragma once
#include "ast/ast.h"

namespace stap::ast {

class Visitor {
public:
  virtual ~Visitor() = default;
  virtual void visit(NumberLit &n);
  virtual void visit(StringLit &n);
  virtual void visit(UnaryExpr &n);
  virtual void visit(IncDecExpr &n);
  virtual void visit(BinaryExpr &n);
  virtual void visit(TernaryExpr &n);
  virtual void visit(AssignExpr &n);
  virtual void visit(SymbolExpr &n);
  virtual void visit(IndexExpr &n);
  virtual void visit(CallExpr &n);
  virtual void visit(InExpr &n);
  virtual void visit(TargetExpr &n);
  virtual void visit(CastExpr &n);
  virtual void visit(AutocastExpr &n);
  virtual void visit(AtOpExpr &n);
  virtual void visit(StatExpr &n);
  virtual void visit(HistExpr &n);
  virtual void visit(EmbeddedExpr &n);
  virtual void visit(BlockStmt &n);
  virtual void visit(ExprStmt &n);
  virtual void visit(NullStmt &n);
  virtual void visit(IfStmt &n);
  virtual void visit(WhileStmt &n);
  virtual void visit(ForStmt &n);
  virtual void visit(ForeachStmt &n);
  virtual void visit(BreakStmt &n);
  virtual void visit(ContinueStmt &n);
  virtual void visit(NextStmt &n);
  virtual void visit(ReturnStmt &n);
  virtual void visit(DeleteStmt &n);
  virtual void visit(TryStmt &n);
  virtual void visit(EmbeddedStmt &n);
  virtual void visit(VarDecl &n);
  virtual void visit(GlobalDecl &n);
  virtual void visit(FunctionDecl &n);
  virtual void visit(ProbePoint &n);
  virtual void visit(ProbeDecl &n);
  virtual void visit(ProbeAliasDecl &n);
  virtual void visit(EmbeddedDecl &n);

  // Null-safe helpers for optional children.
  void visit_expr(Expr *e) { if (e) e->accept(*this); }
  void visit_stmt(Stmt *s) { if (s) s->accept(*this); }
  void visit_components(std::vector<TargetComponent> &cs);
  void visit_file(File &f);
};

} // namespace stap::ast
