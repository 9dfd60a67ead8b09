#include "passes/resolve_symbols.h"

#include "ast/visitor.h"
#include "lang/builtins.h"
#include "lang/overloads.h"

#include <map>
#include <set>

namespace stap {
namespace {

// A body being resolved: a probe's or a function's.
struct Scope {
  const SourceFile *file = nullptr;
  const std::vector<ast::VarDecl *> *params = nullptr;
  std::vector<ast::VarDecl *> *locals = nullptr;
};

class SymbolResolver : public ast::Visitor {
public:
  SymbolResolver(Program &p, ast::Arena &a, Diagnostics &d) : prog_(p), arena_(a), diag_(d) {}

  void resolve_body(const Scope &scope, ast::Stmt *body) {
    scope_ = scope;
    visit_stmt(body);
  }

  void visit(ast::SymbolExpr &n) override { bind(n); }

  // `delete` takes a variable or an array element (4.8's words).
  void visit(ast::DeleteStmt &n) override {
    if (!dynamic_cast<ast::SymbolExpr *>(n.target) && !dynamic_cast<ast::IndexExpr *>(n.target))
      diag_.error(n.target->loc, "invalid operand of delete expression");
    Visitor::visit(n);
  }

  // An alias body from a library file sees that file's private names;
  // its locals are the probe's, shared with the rest of the body.
  void visit(ast::BlockStmt &n) override {
    const SourceFile *outer = scope_.file;
    if (n.file)
      scope_.file = n.file;
    Visitor::visit(n);
    scope_.file = outer;
  }

  void visit(ast::IndexExpr &n) override {
    for (ast::Expr *e : n.indexes)
      visit_expr(e);
    auto *sym = dynamic_cast<ast::SymbolExpr *>(n.base);
    if (!sym) {
      visit_expr(n.base); // a histogram's buckets
      return;
    }
    bind(*sym);
    if (sym->global)
      sym->global->array = true;
    else
      diag_.error(sym->loc, "local array '" + sym->name +
                                "' is not supported; declare it global");
  }

  void visit(ast::CallExpr &n) override {
    Visitor::visit(n);
    n.overloads = lang::overload_chain(prog_.files, n.name, n.args.size(),
                                 [&](const ast::File &f, const ast::FunctionDecl &fn) {
                                   return visible(f.source.get(), fn.is_private);
                                 });
    n.callee = n.overloads.empty() ? nullptr : n.overloads.front();
    for (ast::FunctionDecl *fn : n.overloads)
      reached_.push_back(fn);
    if (!n.callee && !lang::find_builtin(n.name) && !listing_)
      diag_.error(n.loc, "unresolved function call '" + n.name + "' with " +
                             std::to_string(n.args.size()) + " argument(s)");
  }

private:
  bool visible(const SourceFile *owner, bool is_private) const {
    return !is_private || owner == scope_.file;
  }

  ast::GlobalDecl *find_global(const std::string &name) const {
    for (const auto &f : prog_.files)
      for (ast::GlobalDecl *g : f->globals)
        if (g->name == name && visible(f->source.get(), g->is_private))
          return g;
    return nullptr;
  }

  void bind(ast::SymbolExpr &n) {
    if (n.local || n.global)
      return;
    if (scope_.params)
      for (ast::VarDecl *p : *scope_.params)
        if (p->name == n.name) {
          n.local = p;
          return;
        }
    for (ast::VarDecl *l : *scope_.locals)
      if (l->name == n.name) {
        n.local = l;
        return;
      }
    if ((n.global = find_global(n.name))) {
      globals_used_.push_back(n.global);
      return;
    }
    // First use of a new local.
    ast::VarDecl *v = arena_.make<ast::VarDecl>(n.loc);
    v->name = n.name;
    scope_.locals->push_back(v);
    n.local = v;
  }

public:
  std::vector<ast::FunctionDecl *> reached_; // calls bound so far, in order
  // -l/-L: an unresolved call is left unbound (its value of unknown type),
  // as SystemTap 4.8 lists a point whose alias calls a function the
  // script is to define.
  bool listing_ = false;
  std::vector<ast::GlobalDecl *> globals_used_;

private:
  Program &prog_;
  ast::Arena &arena_;
  Diagnostics &diag_;
  Scope scope_;
};

} // namespace

void resolve_symbols(Program &program, ast::Arena &arena, Diagnostics &diag,
                     bool keep_unused, bool listing) {
  SymbolResolver r(program, arena, diag);
  r.listing_ = listing;
  const auto &script = program.files.front();
  for (ast::ProbeDecl *p : script->probes)
    r.resolve_body(Scope{p->file ? p->file : script->source.get(), nullptr, &p->locals}, p->body);
  if (keep_unused)
    for (ast::FunctionDecl *fn : script->functions)
      r.reached_.push_back(fn);
  // Functions are resolved as calls reach them, so tapset code nobody
  // calls is never looked at.
  std::set<ast::FunctionDecl *> done;
  for (size_t i = 0; i < r.reached_.size(); ++i) {
    ast::FunctionDecl *fn = r.reached_[i];
    if (!done.insert(fn).second)
      continue;
    r.resolve_body(Scope{fn->file, &fn->params, &fn->locals}, fn->body);
  }
  // Keep declaration order, which is also the order of the output.
  // Overloads of one name and arity get distinct C names.
  std::set<ast::GlobalDecl *> used(r.globals_used_.begin(), r.globals_used_.end());
  std::map<std::pair<std::string, size_t>, unsigned> overloads;
  for (const auto &f : program.files) {
    for (ast::FunctionDecl *fn : f->functions)
      if (done.count(fn)) {
        fn->overload_index = overloads[{fn->name, fn->params.size()}]++;
        program.functions.push_back(fn);
      }
    // A global nothing refers to is dropped, the script's own too, as
    // SystemTap 4.8 does (with -u as well): its type need not be known.
    for (ast::GlobalDecl *g : f->globals)
      if (used.count(g))
        program.globals.push_back(g);
  }
  std::set<ast::GlobalDecl *> met;
  for (ast::GlobalDecl *g : r.globals_used_)
    if (met.insert(g).second)
      program.globals_by_first_use.push_back(g);
}

} // namespace stap
