#include "passes/elide_unused.h"

#include "ast/visitor.h"
#include "lang/builtins.h"

#include <map>
#include <set>

namespace stap {
namespace {

using Purity = std::map<const ast::FunctionDecl *, bool>;

bool pure_builtin(const std::string &name) { return name.rfind("sprint", 0) == 0; }

// Does evaluating this code change anything but the locals of its own
// body? Calls count by the callee's purity (all overloads of the chain).
class SideEffects : public ast::Visitor {
public:
  explicit SideEffects(const Purity &pure) : pure_(pure) {}
  bool found = false;

  void visit(ast::AssignExpr &n) override {
    auto *sym = dynamic_cast<ast::SymbolExpr *>(n.target);
    if (!sym || !sym->local)
      found = true;
    Visitor::visit(n);
  }
  void visit(ast::IncDecExpr &n) override {
    auto *sym = dynamic_cast<ast::SymbolExpr *>(n.operand);
    if (!sym || !sym->local)
      found = true;
    Visitor::visit(n);
  }
  void visit(ast::CallExpr &n) override {
    if (n.overloads.empty()) {
      if (!pure_builtin(n.name))
        found = true;
    }
    for (const ast::FunctionDecl *fn : n.overloads) {
      auto it = pure_.find(fn);
      if (it == pure_.end() || !it->second)
        found = true;
    }
    Visitor::visit(n);
  }
  void visit(ast::ForeachStmt &n) override {
    for (ast::SymbolExpr *k : n.keys)
      if (!k->local)
        found = true;
    if (n.value && !n.value->local)
      found = true;
    Visitor::visit(n);
  }
  void visit(ast::DeleteStmt &) override { found = true; }
  void visit(ast::EmbeddedExpr &) override { found = true; }
  void visit(ast::NextStmt &) override { found = true; }

private:
  const Purity &pure_;
};

bool has_side_effects(ast::Node &n, const Purity &pure) {
  SideEffects s(pure);
  n.accept(s);
  return s.found;
}

// Script functions start pure and lose it while a callee or their own
// code has side effects; recursion settles at the fixpoint.
Purity function_purity(const Program &program) {
  Purity pure;
  for (const ast::FunctionDecl *fn : program.functions) {
    if (auto *c = dynamic_cast<ast::EmbeddedStmt *>(fn->body))
      pure[fn] = c->code.find("/* pure */") != std::string::npos;
    else
      pure[fn] = fn->body != nullptr;
  }
  for (bool changed = true; changed;) {
    changed = false;
    for (ast::FunctionDecl *fn : program.functions) {
      if (!pure[fn] || dynamic_cast<ast::EmbeddedStmt *>(fn->body))
        continue;
      if (has_side_effects(*fn->body, pure)) {
        pure[fn] = false;
        changed = true;
      }
    }
  }
  return pure;
}

// The locals a body reads (a plain `x = ...` does not read x).
class Reads : public ast::Visitor {
public:
  std::set<const ast::VarDecl *> read;
  void visit(ast::SymbolExpr &n) override {
    if (n.local)
      read.insert(n.local);
  }
  void visit(ast::AssignExpr &n) override {
    auto *sym = dynamic_cast<ast::SymbolExpr *>(n.target);
    if (sym && sym->local && n.op == ast::AssignOp::Assign) {
      visit_expr(n.value);
      return;
    }
    Visitor::visit(n);
  }
};

// The leftmost token of an expression, where SystemTap points at it.
class Leftmost : public ast::Visitor {
public:
  const ast::Expr *found = nullptr;
  void visit(ast::BinaryExpr &n) override { start(n, n.left); }
  void visit(ast::TernaryExpr &n) override { start(n, n.cond); }
  void visit(ast::InExpr &n) override { if (!n.keys.empty()) start(n, n.keys.front()); }

private:
  void start(ast::Expr &self, ast::Expr *left) {
    if (left && left->loc.file == self.loc.file && left->loc.line == self.loc.line &&
        left->loc.col < self.loc.col)
      found = left;
  }
};

SourceLoc expression_start(ast::Expr *e) {
  for (;;) {
    Leftmost l;
    e->accept(l);
    if (!l.found)
      return e->loc;
    e = const_cast<ast::Expr *>(l.found);
  }
}

// Removes, from every block of a body, the dead tapset assignments and, in
// the user script's own code, expression statements that do nothing
// (`1;`, `x;`, a call of a pure function), with SystemTap's warning.
class Remover : public ast::Visitor {
public:
  Remover(const std::set<const ast::VarDecl *> &read, const Purity &pure,
          const SourceFile *script, Diagnostics *diag)
      : read_(read), pure_(pure), script_(script), diag_(diag) {}
  bool removed = false;

  void visit(ast::BlockStmt &n) override {
    std::vector<ast::Stmt *> kept;
    for (ast::Stmt *s : n.stmts) {
      if (dead(s)) {
        removed = true;
        continue;
      }
      if (auto *es = dynamic_cast<ast::ExprStmt *>(s); es && does_nothing(*es)) {
        diag_->warning(expression_start(es->expr), "Eliding side-effect-free expression");
        removed = true; // what it read may now be dead (`s = "a"; s;`)
        continue;
      }
      s->accept(*this);
      kept.push_back(s);
    }
    n.stmts = std::move(kept);
  }

private:
  bool dead(ast::Stmt *s) const {
    auto *es = dynamic_cast<ast::ExprStmt *>(s);
    if (!es)
      return false;
    auto *a = dynamic_cast<ast::AssignExpr *>(es->expr);
    if (!a || a->op != ast::AssignOp::Assign)
      return false;
    auto *sym = dynamic_cast<ast::SymbolExpr *>(a->target);
    if (!sym || !sym->local || read_.count(sym->local))
      return false;
    return !has_side_effects(*a->value, pure_);
  }

  bool does_nothing(ast::ExprStmt &es) const {
    if (!diag_ || !es.expr || es.loc.file != script_ || dynamic_cast<ast::AssignExpr *>(es.expr) ||
        dynamic_cast<ast::IncDecExpr *>(es.expr))
      return false;
    return !has_side_effects(*es.expr, pure_);
  }

  const std::set<const ast::VarDecl *> &read_;
  const Purity &pure_;
  const SourceFile *script_;
  Diagnostics *diag_;
};

// The functions and globals code reaches, transitively through calls.
class Reach : public ast::Visitor {
public:
  std::set<const ast::FunctionDecl *> functions;
  std::set<const ast::GlobalDecl *> globals;
  void visit(ast::SymbolExpr &n) override {
    if (n.global)
      globals.insert(n.global);
  }
  void visit(ast::CallExpr &n) override {
    Visitor::visit(n);
    for (ast::FunctionDecl *fn : n.overloads)
      if (functions.insert(fn).second && fn->body)
        fn->body->accept(*this);
  }
};

// The locals a body still names, after elision took their assignments.
class Named : public ast::Visitor {
public:
  std::set<const ast::VarDecl *> locals;
  void visit(ast::SymbolExpr &n) override {
    if (n.local)
      locals.insert(n.local);
  }
};

void drop_unused_locals(ast::Stmt *body, std::vector<ast::VarDecl *> &locals) {
  if (!body)
    return;
  Named named;
  body->accept(named);
  std::vector<ast::VarDecl *> kept;
  for (ast::VarDecl *v : locals)
    if (named.locals.count(v))
      kept.push_back(v);
  locals = std::move(kept);
}

} // namespace

void elide_unused_assignments(Program &program, Diagnostics &diag) {
  const Purity pure = function_purity(program);
  const auto &script = program.files.front();
  // The script's own functions: what does nothing goes, and assignments
  // to locals the function never reads (warn_unused.h said so).
  for (ast::FunctionDecl *fn : program.functions)
    if (fn->file == script->source.get() && fn->body) {
      for (bool again = true; again;) {
        Reads r;
        fn->body->accept(r);
        Remover rm(r.read, pure, script->source.get(), &diag);
        fn->body->accept(rm);
        again = rm.removed;
      }
    }
  for (ast::ProbeDecl *p : script->probes) {
    for (bool again = true; again;) {
      Reads r;
      p->body->accept(r);
      for (ast::ProbePoint *pt : p->points)
        if (pt->condition)
          pt->condition->accept(r);
      Remover rm(r.read, pure, script->source.get(), &diag);
      p->body->accept(rm);
      again = rm.removed;
    }
  }
  Reach reach;
  for (ast::ProbeDecl *p : script->probes) {
    p->body->accept(reach);
    for (ast::ProbePoint *pt : p->points)
      if (pt->condition)
        pt->condition->accept(reach);
  }
  // A function whose every call was elided goes too (SystemTap 4.8 lists
  // neither it nor the locals that held its value).
  std::vector<ast::FunctionDecl *> functions;
  for (ast::FunctionDecl *fn : program.functions)
    if (reach.functions.count(fn))
      functions.push_back(fn);
  program.functions = std::move(functions);
  std::vector<ast::GlobalDecl *> globals;
  for (ast::GlobalDecl *g : program.globals)
    if (reach.globals.count(g))
      globals.push_back(g);
  program.globals = std::move(globals);
}

void drop_unused_locals(Program &program) {
  const SourceFile *script = program.files.front()->source.get();
  for (ast::ProbeDecl *p : program.files.front()->probes)
    drop_unused_locals(p->body, p->locals);
  for (ast::FunctionDecl *fn : program.functions)
    if (fn->file == script)
      drop_unused_locals(fn->body, fn->locals);
}

} // namespace stap
