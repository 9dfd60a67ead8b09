#include "passes/displayed_globals.h"

#include "ast/visitor.h"

#include <set>

namespace stap {
namespace {

// Sorts global uses into reads and writes. A use as the target of an
// assignment, ++/-- or delete is a write only, even `x += 1`.
class ReadWrite : public ast::Visitor {
public:
  std::set<const ast::GlobalDecl *> read, written;

  void visit(ast::SymbolExpr &n) override {
    if (n.global)
      read.insert(n.global);
  }
  void visit(ast::AssignExpr &n) override {
    target(n.target);
    visit_expr(n.value);
  }
  void visit(ast::IncDecExpr &n) override { target(n.operand); }
  void visit(ast::DeleteStmt &n) override { target(n.target); }

private:
  void target(ast::Expr *e) {
    ast::Expr *base = e;
    if (auto *ix = dynamic_cast<ast::IndexExpr *>(e)) {
      for (ast::Expr *k : ix->indexes)
        visit_expr(k);
      base = ix->base;
    }
    if (auto *s = dynamic_cast<ast::SymbolExpr *>(base); s && s->global)
      written.insert(s->global);
    else
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
