#include "passes/check_foreach.h"

#include "ast/visitor.h"

#include <map>
#include <set>

namespace stap {
namespace {

using Var = const void *; // a GlobalDecl or a VarDecl

Var array_of(ast::Expr *e) {
  auto *sym = dynamic_cast<ast::SymbolExpr *>(e);
  if (!sym)
    return nullptr;
  return sym->global ? static_cast<Var>(sym->global) : static_cast<Var>(sym->local);
}

// The array symbol whose element `target` names (`a[k]`), or nullptr.
ast::SymbolExpr *element_base(ast::Expr *target) {
  auto *idx = dynamic_cast<ast::IndexExpr *>(target);
  return idx ? dynamic_cast<ast::SymbolExpr *>(idx->base) : nullptr;
}

// Every element change of `body`: (the array's symbol, where), and the calls.
class Changes : public ast::Visitor {
public:
  std::vector<ast::SymbolExpr *> changed;
  std::vector<ast::CallExpr *> calls;

  void visit(ast::AssignExpr &n) override {
    if (ast::SymbolExpr *a = element_base(n.target))
      changed.push_back(a);
    Visitor::visit(n);
  }
  void visit(ast::IncDecExpr &n) override {
    if (ast::SymbolExpr *a = element_base(n.operand))
      changed.push_back(a);
    Visitor::visit(n);
  }
  void visit(ast::DeleteStmt &n) override {
    if (ast::SymbolExpr *a = element_base(n.target))
      changed.push_back(a);
    Visitor::visit(n);
  }
  void visit(ast::CallExpr &n) override {
    calls.push_back(&n);
    Visitor::visit(n);
  }
};

// The global arrays each function changes, through its callees too.
std::map<const ast::FunctionDecl *, std::set<Var>> function_changes(const Program &program) {
  std::map<const ast::FunctionDecl *, std::set<Var>> out;
  std::map<const ast::FunctionDecl *, std::vector<ast::CallExpr *>> calls;
  for (ast::FunctionDecl *fn : program.functions) {
    Changes c;
    if (fn->body)
      fn->body->accept(c);
    for (ast::SymbolExpr *a : c.changed)
      if (a->global)
        out[fn].insert(a->global);
    calls[fn] = c.calls;
  }
  for (bool again = true; again;) {
    again = false;
    for (auto &[fn, cs] : calls)
      for (ast::CallExpr *call : cs)
        for (const ast::FunctionDecl *callee : call->overloads)
          for (Var v : std::set<Var>(out[callee]))
            again |= out[fn].insert(v).second;
  }
  return out;
}

class ForeachCheck : public ast::Visitor {
public:
  ForeachCheck(const std::map<const ast::FunctionDecl *, std::set<Var>> &fc, Diagnostics &d)
      : fc_(fc), diag_(d) {}

  void visit(ast::ForeachStmt &n) override {
    Var iterated = array_of(n.array);
    if (iterated && n.body) {
      Changes c;
      n.body->accept(c);
      for (ast::SymbolExpr *a : c.changed)
        if (array_of(a) == iterated)
          diag_.error(a->loc, "variable '" + a->name + "' modified during 'foreach' iteration");
      for (ast::CallExpr *call : c.calls)
        for (const ast::FunctionDecl *callee : call->overloads) {
          auto it = fc_.find(callee);
          if (it != fc_.end() && it->second.count(iterated)) {
            diag_.error(call->loc, "function call modifies var '" +
                                       static_cast<ast::SymbolExpr *>(n.array)->name +
                                       "' during 'foreach' iteration");
            break;
          }
        }
    }
    Visitor::visit(n);
  }

private:
  const std::map<const ast::FunctionDecl *, std::set<Var>> &fc_;
  Diagnostics &diag_;
};

} // namespace

void check_foreach_modifications(Program &program, Diagnostics &diag) {
  auto fc = function_changes(program);
  ForeachCheck check(fc, diag);
  for (ast::ProbeDecl *p : program.files.front()->probes)
    if (p->body)
      p->body->accept(check);
  for (ast::FunctionDecl *fn : program.functions)
    if (fn->body)
      fn->body->accept(check);
}

} // namespace stap
