#include "passes/fold_defined.h"

#include "ast/clone.h"
#include "ast/rewrite.h"
#include "passes/target_vars.h"

#include <map>
#include <set>

namespace stap {
namespace {

// Does `operand` resolve in `probe` (nullptr: a function, no context)?
// Target variables answer from the point's debuginfo (passes/target_vars),
// @cast from the named module's.
class Resolves : public ast::Visitor {
public:
  Resolves(const probes::ResolveEnv &env, const probes::ResolvedProbe *probe)
      : env_(env), probe_(probe) {}
  bool any = false, all = true;

  void visit(ast::TargetExpr &n) override {
    any = true;
    debuginfo::AccessError err;
    if (!probe_ || !target_type(*probe_, n, err))
      all = false;
    Visitor::visit(n);
  }
  void visit(ast::CastExpr &n) override {
    any = true;
    debuginfo::AccessError err;
    if (!cast_type(env_, n, err))
      all = false;
    Visitor::visit(n);
  }
  // Autocast needs types carried by script values: not yet.
  void visit(ast::AutocastExpr &n) override {
    any = true;
    all = false;
    Visitor::visit(n);
  }

private:
  const probes::ResolveEnv &env_;
  const probes::ResolvedProbe *probe_;
};

bool is_defined_op(const ast::Expr *e) {
  auto *at = dynamic_cast<const ast::AtOpExpr *>(e);
  return at && at->name == "defined" && at->args.size() == 1;
}

// Each @defined of a body answered for one probe, in visiting order.
class Answers : public ast::Visitor {
public:
  Answers(const probes::ResolveEnv &env, const probes::ResolvedProbe *probe)
      : env_(env), probe_(probe) {}
  std::vector<bool> answers;
  void visit(ast::AtOpExpr &n) override {
    if (is_defined_op(&n)) {
      Resolves r(env_, probe_);
      n.args[0]->accept(r);
      answers.push_back(r.any && r.all);
    }
    Visitor::visit(n);
  }

private:
  const probes::ResolveEnv &env_;
  const probes::ResolvedProbe *probe_;
};

// Replaces each @defined with its answer for one probe.
class DefinedFolder : public ast::Rewriter {
public:
  DefinedFolder(ast::Arena &a, const probes::ResolveEnv &env, const probes::ResolvedProbe *probe)
      : arena_(a), env_(env), probe_(probe) {}

protected:
  using Rewriter::rewrite;
  ast::Expr *rewrite(ast::Expr *e) override {
    if (!is_defined_op(e))
      return e;
    Resolves r(env_, probe_);
    static_cast<ast::AtOpExpr *>(e)->args[0]->accept(r);
    auto *n = arena_.make<ast::NumberLit>(e->loc);
    n->value = r.any && r.all;
    n->spelling = std::to_string(n->value);
    return n;
  }

private:
  ast::Arena &arena_;
  const probes::ResolveEnv &env_;
  const probes::ResolvedProbe *probe_;
};

bool has_defined(const probes::ResolveEnv &env, ast::Stmt *body) {
  Answers a(env, nullptr);
  if (body)
    body->accept(a);
  return !a.answers.empty();
}

} // namespace

void fold_defined(const probes::ResolveEnv &env, Program &program, ast::Arena &arena) {
  ast::File &script = *program.files.front();
  for (auto &[decl, points] : points_by_decl(program)) {
    if (!has_defined(env, decl->body))
      continue;
    // One body per distinct set of answers; copies are made before any
    // body is rewritten.
    std::map<std::vector<bool>, std::pair<ast::ProbeDecl *, probes::ResolvedProbe *>> variants;
    for (probes::ResolvedProbe *rp : points) {
      Answers a(env, rp);
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
      DefinedFolder f(arena, env, variant.second);
      f.body(variant.first->body);
    }
  }
  // Functions have no probe context: every @defined there is 0.
  for (const auto &file : program.files)
    for (ast::FunctionDecl *fn : file->functions)
      if (has_defined(env, fn->body)) {
        DefinedFolder f(arena, env, nullptr);
        fn->body = f.stmt(fn->body);
      }
}

} // namespace stap
