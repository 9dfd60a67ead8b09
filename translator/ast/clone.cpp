#include "ast/clone.h"

#include "ast/visitor.h"

#include <utility>

namespace stap::ast {
namespace {

// Each visit copies the node (its plain fields come along) and then
// replaces every child pointer with a copy of the child.
class Cloner : public Visitor {
public:
  explicit Cloner(Arena &a) : arena_(a) {}

  Expr *expr(Expr *e) {
    if (!e)
      return nullptr;
    Node *outer = result_; // the copy a child belongs to
    e->accept(*this);
    std::swap(outer, result_);
    return static_cast<Expr *>(outer);
  }
  Stmt *stmt(Stmt *s) {
    if (!s)
      return nullptr;
    Node *outer = result_;
    s->accept(*this);
    std::swap(outer, result_);
    return static_cast<Stmt *>(outer);
  }
  template <typename T> T *same(T *n) { return static_cast<T *>(n ? expr(n) : nullptr); }
  BlockStmt *block(BlockStmt *b) { return static_cast<BlockStmt *>(stmt(b)); }

  void visit(NumberLit &n) override { copy(n); }
  void visit(StringLit &n) override { copy(n); }
  void visit(UnaryExpr &n) override { copy(n)->operand = expr(n.operand); }
  void visit(IncDecExpr &n) override { copy(n)->operand = expr(n.operand); }
  void visit(BinaryExpr &n) override {
    auto *c = copy(n);
    c->left = expr(n.left);
    c->right = expr(n.right);
  }
  void visit(TernaryExpr &n) override {
    auto *c = copy(n);
    c->cond = expr(n.cond);
    c->then_expr = expr(n.then_expr);
    c->else_expr = expr(n.else_expr);
  }
  void visit(AssignExpr &n) override {
    auto *c = copy(n);
    c->target = expr(n.target);
    c->value = expr(n.value);
  }
  void visit(SymbolExpr &n) override {
    auto *c = copy(n);
    c->local = nullptr;
    c->global = nullptr;
  }
  void visit(IndexExpr &n) override {
    auto *c = copy(n);
    c->base = expr(n.base);
    exprs(c->indexes);
  }
  void visit(CallExpr &n) override {
    auto *c = copy(n);
    c->callee = nullptr;
    c->overloads.clear();
    exprs(c->args);
  }
  void visit(InExpr &n) override {
    auto *c = copy(n);
    exprs(c->keys);
    c->array = expr(n.array);
  }
  void visit(TargetExpr &n) override { components(copy(n)->components); }
  void visit(CastExpr &n) override {
    auto *c = copy(n);
    c->operand = expr(n.operand);
    components(c->components);
  }
  void visit(AutocastExpr &n) override {
    auto *c = copy(n);
    c->operand = expr(n.operand);
    components(c->components);
  }
  void visit(AtOpExpr &n) override { exprs(copy(n)->args); }
  void visit(StatExpr &n) override {
    auto *c = copy(n);
    c->stat = expr(n.stat);
    c->param = expr(n.param);
  }
  void visit(HistExpr &n) override {
    auto *c = copy(n);
    c->stat = expr(n.stat);
    exprs(c->params);
  }
  void visit(EmbeddedExpr &n) override { copy(n); }

  void visit(BlockStmt &n) override {
    auto *c = copy(n);
    for (Stmt *&s : c->stmts)
      s = stmt(s);
  }
  void visit(ExprStmt &n) override { copy(n)->expr = expr(n.expr); }
  void visit(NullStmt &n) override { copy(n); }
  void visit(IfStmt &n) override {
    auto *c = copy(n);
    c->cond = expr(n.cond);
    c->then_stmt = stmt(n.then_stmt);
    c->else_stmt = stmt(n.else_stmt);
  }
  void visit(WhileStmt &n) override {
    auto *c = copy(n);
    c->cond = expr(n.cond);
    c->body = stmt(n.body);
  }
  void visit(ForStmt &n) override {
    auto *c = copy(n);
    c->init = expr(n.init);
    c->cond = expr(n.cond);
    c->step = expr(n.step);
    c->body = stmt(n.body);
  }
  void visit(ForeachStmt &n) override {
    auto *c = copy(n);
    c->value = same(n.value);
    for (SymbolExpr *&k : c->keys)
      k = same(k);
    c->array = expr(n.array);
    exprs(c->slice);
    c->limit = expr(n.limit);
    c->body = stmt(n.body);
  }
  void visit(BreakStmt &n) override { copy(n); }
  void visit(ContinueStmt &n) override { copy(n); }
  void visit(NextStmt &n) override { copy(n); }
  void visit(ReturnStmt &n) override { copy(n)->value = expr(n.value); }
  void visit(DeleteStmt &n) override { copy(n)->target = expr(n.target); }
  void visit(TryStmt &n) override {
    auto *c = copy(n);
    c->try_block = block(n.try_block);
    c->catch_var = same(n.catch_var);
    c->catch_block = block(n.catch_block);
  }
  void visit(EmbeddedStmt &n) override { copy(n); }

private:
  template <typename T> T *copy(T &n) {
    T *c = arena_.make<T>(n.loc, n);
    result_ = c;
    return c;
  }
  void exprs(std::vector<Expr *> &v) {
    for (Expr *&e : v)
      e = expr(e);
  }
  void components(std::vector<TargetComponent> &cs) {
    for (TargetComponent &c : cs)
      c.index = expr(c.index);
  }

  Arena &arena_;
  Node *result_ = nullptr;
};

} // namespace

Stmt *clone_stmt(Arena &arena, Stmt *s) { return Cloner(arena).stmt(s); }
Expr *clone_expr(Arena &arena, Expr *e) { return Cloner(arena).expr(e); }

} // namespace stap::ast
