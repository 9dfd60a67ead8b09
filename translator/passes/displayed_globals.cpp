#include "passes/displayed_globals.h"

#include "ast/visitor.h"

#include <set>

namespace stap {
namespace {

// Sorts global uses into reads and writes, as SystemTap 4.8 does. A use
// as the target of `=` or delete is a write only, and so is one of ++/--
// or `op=` whose value is discarded (a statement, a for loop's init or
// step: `x++`, `x += 1`); when the value is used (`y = ++x`, `return
// x += 2`, `if (x--)`) the global counts as read too.
class ReadWrite : public ast::Visitor {
public:
  std::set<const ast::GlobalDecl *> read, written;

  void visit(ast::SymbolExpr &n) override {
    if (n.global)
      read.insert(n.global);
  }
  void visit(ast::AssignExpr &n) override {
    bool used = !discarded(&n);
    target(n.target, used && n.op != ast::AssignOp::Assign);
    visit_expr(n.value);
  }
  void visit(ast::IncDecExpr &n) override { target(n.operand, !discarded(&n)); }
  void visit(ast::DeleteStmt &n) override { target(n.target, false); }
  void visit(ast::ExprStmt &n) override {
    unused_ = n.expr;
    visit_expr(n.expr);
  }
  void visit(ast::ForStmt &n) override {
    unused_ = n.init;
    visit_expr(n.init);
    visit_expr(n.cond);
    unused_ = n.step;
    visit_expr(n.step);
    visit_stmt(n.body);
  }

private:
  const ast::Expr *unused_ = nullptr; // the expression whose value is discarded

  bool discarded(const ast::Expr *e) {
    bool d = e == unused_;
    unused_ = nullptr;
    return d;
  }
  void target(ast::Expr *e, bool also_read) {
    ast::Expr *base = e;
    if (auto *ix = dynamic_cast<ast::IndexExpr *>(e)) {
      for (ast::Expr *k : ix->indexes)
        visit_expr(k);
      base = ix->base;
    }
    if (auto *s = dynamic_cast<ast::SymbolExpr *>(base); s && s->global) {
      written.insert(s->global);
      if (also_read)
        read.insert(s->global);
    } else
      visit_expr(e);
  }
};

} // namespace

std::vector<ast::GlobalDecl *> globals_in_listing_order(const Program &p) {
  std::set<const ast::GlobalDecl *> kept(p.globals.begin(), p.globals.end()), listed;
  std::vector<ast::GlobalDecl *> order;
  for (ast::GlobalDecl *g : p.globals_by_first_use)
    if (kept.count(g) && listed.insert(g).second)
      order.push_back(g);
  for (ast::GlobalDecl *g : p.globals)
    if (listed.insert(g).second)
      order.push_back(g);
  return order;
}

std::vector<ast::GlobalDecl *> displayed_globals(const Program &program) {
  ReadWrite rw;
  for (ast::FunctionDecl *fn : program.functions)
    rw.visit_stmt(fn->body);
  for (ast::ProbeDecl *p : program.files.front()->probes)
    rw.visit_stmt(p->body);
  const SourceFile *script = program.files.front()->source.get();
  std::vector<ast::GlobalDecl *> out;
  for (ast::GlobalDecl *g : globals_in_listing_order(program))
    if (g->file == script && rw.written.count(g) && !rw.read.count(g))
      out.push_back(g);
  return out;
}

} // namespace stap
