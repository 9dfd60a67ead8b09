// Rewriting the tree in place. A pass derives from Rewriter and overrides
// rewrite(Expr *) and/or rewrite(Stmt *): each is called on every
// expression / statement after its children were rewritten (post-order),
// and what it returns takes the node's place in its parent. Slots whose
// type is narrower than Expr/Stmt (an IndexExpr's base, foreach keys, a
// try's blocks, a probe's body) are rewritten inside but never replaced.
#pragma once
#include "ast/visitor.h"

namespace stap::ast {

class Rewriter : public Visitor {
public:
  // Rewrites `e` (its children first) and returns what replaces it.
  Expr *expr(Expr *e);
  Stmt *stmt(Stmt *s);
  // Rewrites inside a body whose slot cannot take another node.
  void body(Stmt *s) { visit_stmt(s); }

protected:
  virtual Expr *rewrite(Expr *e) { return e; }
  virtual Stmt *rewrite(Stmt *s) { return s; }

public:
  void visit(UnaryExpr &n) override;
  void visit(IncDecExpr &n) override;
  void visit(BinaryExpr &n) override;
  void visit(TernaryExpr &n) override;
  void visit(AssignExpr &n) override;
  void visit(IndexExpr &n) override;
  void visit(CallExpr &n) override;
  void visit(InExpr &n) override;
  void visit(TargetExpr &n) override;
  void visit(CastExpr &n) override;
  void visit(AutocastExpr &n) override;
  void visit(AtOpExpr &n) override;
  void visit(StatExpr &n) override;
  void visit(HistExpr &n) override;
  void visit(BlockStmt &n) override;
  void visit(ExprStmt &n) override;
  void visit(IfStmt &n) override;
  void visit(WhileStmt &n) override;
  void visit(ForStmt &n) override;
  void visit(ForeachStmt &n) override;
  void visit(ReturnStmt &n) override;
  void visit(DeleteStmt &n) override;
  void visit(TryStmt &n) override;

private:
  void components(std::vector<TargetComponent> &cs);
};

} // namespace stap::ast
