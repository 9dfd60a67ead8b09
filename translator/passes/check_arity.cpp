#include "passes/check_arity.h"

#include "ast/visitor.h"

#include <map>

namespace stap {
namespace {

class ArityRules : public ast::Visitor {
public:
  explicit ArityRules(Diagnostics &d) : diag_(d) {}

  void visit(ast::SymbolExpr &n) override { use(n, 0); }
  void visit(ast::IndexExpr &n) override {
    if (auto *sym = dynamic_cast<ast::SymbolExpr *>(n.base))
      use(*sym, n.indexes.size());
    else
      visit_expr(n.base); // a histogram's buckets
    for (ast::Expr *e : n.indexes)
      visit_expr(e);
  }
  void visit(ast::InExpr &n) override {
    for (ast::Expr *e : n.keys)
      visit_expr(e);
    if (auto *sym = dynamic_cast<ast::SymbolExpr *>(n.array))
      use(*sym, n.keys.size());
    else
      visit_expr(n.array);
  }
  void visit(ast::ForeachStmt &n) override {
    if (auto *sym = dynamic_cast<ast::SymbolExpr *>(n.array)) {
      use(*sym, n.keys.size());
      // A slice `a[1, *]` gives every index of the array (4.8 rejects
      // `foreach ([k, l] in a[1])`).
      if (!n.slice.empty() && n.slice.size() != n.keys.size())
        use(*sym, n.slice.size());
    } else {
      visit_expr(n.array);
    }
    for (ast::Expr *e : n.slice)
      visit_expr(e);
    visit_expr(n.limit);
    visit_stmt(n.body);
  }
  void visit(ast::DeleteStmt &n) override {
    if (!dynamic_cast<ast::SymbolExpr *>(n.target))
      visit_expr(n.target);
  }

private:
  // The first use fixes the arity (a sized declaration: at least one).
  struct Seen {
    size_t arity;
    SourceLoc loc;
  };

  void use(ast::SymbolExpr &n, size_t arity) {
    ast::GlobalDecl *g = n.global;
    if (!g)
      return;
    auto it = seen_.find(g);
    if (it == seen_.end()) {
      if (g->size && arity == 0) {
        diag_.error(n.loc, "'" + g->name + "' is declared as an array and used as a scalar");
        return;
      }
      seen_.emplace(g, Seen{arity, n.loc});
      return;
    }
    const Seen &first = it->second;
    if (first.arity == arity)
      return;
    diag_.error(n.loc, "'" + g->name + "' is used " + shape(arity) + " here, but " +
                           shape(first.arity) + " at " + std::to_string(first.loc.line) + ":" +
                           std::to_string(first.loc.col));
  }

  static std::string shape(size_t arity) {
    if (arity == 0)
      return "as a scalar";
    return "with " + std::to_string(arity) + (arity == 1 ? " index" : " indexes");
  }

  Diagnostics &diag_;
  std::map<const ast::GlobalDecl *, Seen> seen_;
};

} // namespace

void check_arity(Program &program, Diagnostics &diag) {
  ArityRules rules(diag);
  for (ast::ProbeDecl *p : program.files.front()->probes)
    rules.visit_stmt(p->body);
  for (ast::FunctionDecl *fn : program.functions)
    rules.visit_stmt(fn->body);
}

} // namespace stap
