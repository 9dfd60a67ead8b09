#include "passes/fold_defined.h"

#include "ast/clone.h"
#include "ast/rewrite.h"

#include <map>
#include <set>

namespace stap {
namespace {

// Does `operand` resolve in `probe` (nullptr: a function, no context)?
class Resolves : public ast::Visitor {
public:
  explicit Resolves(const probes::ResolvedProbe *probe) : probe_(probe) {}
  bool any = false, all = true;

  void visit(ast::TargetExpr &n) override {
    any = true;
    auto var = probe_ ? probes::find_context_var(*probe_, n.name) : std::nullopt;
    // Members, indexes and addresses need a DWARF type: none yet.
    if (!var || !n.components.empty() || n.addressof)
      all = false;
    Visitor::visit(n);
  }
  // @cast, @var and autocast need DWARF types, which come later.
  void visit(ast::CastExpr &n) override {
    any = true;
    all = false;
    Visitor::visit(n);
  }
  void visit(ast::AutocastExpr &n) override {
    any = true;
    all = false;
    Visitor::visit(n);
  }

private:
  const probes::ResolvedProbe *probe_;
};

bool is_defined_op(const ast::Expr *e) {
  auto *at = dynamic_cast<const ast::AtOpExpr *>(e);
  return at && at->name == "defined" && at->args.size() == 1;
}

// Each @defined of a body answered for one probe, in visiting order.
class Answers : public ast::Visitor {
public:
  explicit Answers(const probes::ResolvedProbe *probe) : probe_(probe) {}
  std::vector<bool> answers;
  void visit(ast::AtOpExpr &n) override {
    if (is_defined_op(&n)) {
      Resolves r(probe_);
      n.args[0]->accept(r);
      answers.push_back(r.any && r.all);
    }
    Visitor::visit(n);
  }

private:
  const probes::ResolvedProbe *probe_;
};

// Replaces each @defined with its answer for one probe.
class DefinedFolder : public ast::Rewriter {
public:
  DefinedFolder(ast::Arena &a, const probes::ResolvedProbe *probe) : arena_(a), probe_(probe) {}

protected:
  using Rewriter::rewrite;
  ast::Expr *rewrite(ast::Expr *e) override {
    if (!is_defined_op(e))
      return e;
    Resolves r(probe_);
    static_cast<ast::AtOpExpr *>(e)->args[0]->accept(r);
    auto *n = arena_.make<ast::NumberLit>(e->loc);
    n->value = r.any && r.all;
    n->spelling = std::to_string(n->value);
    return n;
  }

private:
  ast::Arena &arena_;
  const probes::ResolvedProbe *probe_;
};

bool has_defined(ast::Stmt *body) {
  Answers a(nullptr);
  if (body)
    body->accept(a);
  return !a.answers.empty();
}

} // namespace

void fold_defined(Program &program, ast::Arena &arena) {
  std::vector<ast::ProbeDecl *> order;
  std::map<ast::ProbeDecl *, std::vector<probes::ResolvedProbe *>> users;
  for (auto &rp : program.probes) {
    auto &u = users[rp.decl];
    if (u.empty())
      order.push_back(rp.decl);
    u.push_back(&rp);
  }
  ast::File &script = *program.files.front();
  for (ast::ProbeDecl *decl : order) {
    if (!has_defined(decl->body))
      continue;
    // One body per distinct set of answers; copies are made before any
    // body is rewritten.
    std::map<std::vector<bool>, std::pair<ast::ProbeDecl *, probes::ResolvedProbe *>> variants;
    for (probes::ResolvedProbe *rp : users[decl]) {
      Answers a(rp);
      decl->body->accept(a);
      auto it = variants.find(a.answers);
      if (it == variants.end()) {
        ast::ProbeDecl *d = decl;
        if (!variants.empty()) {
          d = arena.make<ast::ProbeDecl>(decl->loc);
          d->points = decl->points;
          d->is_private = decl->is_private;
          d->body = static_cast<ast::BlockStmt *>(ast::clone_stmt(arena, decl->body));
          script.probes.push_back(d);
        }
        it = variants.emplace(a.answers, std::make_pair(d, rp)).first;
      }
      rp->decl = it->second.first;
    }
    for (auto &[answers, variant] : variants) {
      DefinedFolder f(arena, variant.second);
      f.body(variant.first->body);
    }
  }
  // Functions have no probe context: every @defined there is 0.
  for (const auto &file : program.files)
    for (ast::FunctionDecl *fn : file->functions)
      if (has_defined(fn->body)) {
        DefinedFolder f(arena, nullptr);
        fn->body = f.stmt(fn->body);
      }
}

} // namespace stap
