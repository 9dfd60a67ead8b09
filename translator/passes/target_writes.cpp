#include "passes/target_writes.h"

#include "ast/visitor.h"
#include "passes/autocast.h"
#include "passes/target_vars.h"

#include <map>
#include <set>

namespace stap {
namespace {

using debuginfo::AccessError;

// Why the place a chain ends at cannot be assigned, or "" when it can.
std::string unwritable(const TypedResult &r, const std::string &name) {
  if (r.is_list || r.use != debuginfo::Use::Scalar)
    return "cannot write '" + name + "': only an integer or a pointer can be assigned";
  if (r.end.bit_size)
    return "cannot write '" + name + "': it is a bitfield";
  if (!r.end.address && !debuginfo::register_lvalue(r.end))
    return "cannot write '" + name + "': its value is computed here, not held in a register "
                                     "or in memory";
  return "";
}

std::string written_name(const ast::Expr *e) {
  if (auto *t = dynamic_cast<const ast::TargetExpr *>(e))
    return debuginfo::chain_name(t->name, t->components);
  if (auto *c = dynamic_cast<const ast::CastExpr *>(e))
    return debuginfo::chain_name(c->kind == ast::CastExpr::Var ? "@var(\"" + c->type_or_var + "\")"
                                                               : "@cast(..., \"" +
                                                                     c->type_or_var + "\")",
                                 c->components);
  if (auto *a = dynamic_cast<const ast::AutocastExpr *>(e)) {
    std::string base = "->";
    if (auto *s = dynamic_cast<const ast::SymbolExpr *>(a->operand))
      base = s->name;
    return debuginfo::chain_name(base, a->components);
  }
  return "?";
}

class Writes : public ast::Visitor {
public:
  Writes(const probes::ResolveEnv &env, const probes::ResolvedProbe *rp, bool guru,
         Diagnostics &diag)
      : env_(env), rp_(rp), guru_(guru), diag_(diag) {}

  void visit(ast::AssignExpr &n) override {
    Visitor::visit(n);
    if (n.op != ast::AssignOp::Aggregate)
      check(n.target);
  }
  void visit(ast::IncDecExpr &n) override {
    Visitor::visit(n);
    check(n.operand);
  }

private:
  void check(ast::Expr *e) {
    ast::Expr *w = written_target(e);
    if (!w || reported_.count(w))
      return;
    auto fail = [&](SourceLoc loc, const std::string &msg) {
      reported_.insert(w);
      diag_.error(loc, msg);
    };
    auto *t = dynamic_cast<ast::TargetExpr *>(w);
    auto *c = dynamic_cast<ast::CastExpr *>(w);
    auto *a = dynamic_cast<ast::AutocastExpr *>(w);
    if (!guru_) {
      if (t && rp_ && rp_->pp.rfind("kernel.trace(", 0) == 0)
        fail(t->loc, "write to tracepoint variable '" + t->name +
                         "' not permitted; need stap -g");
      else if (t && t->name == "$verdict" && rp_ && rp_->pp.rfind("netfilter.", 0) == 0)
        fail(t->loc, "write to netfilter verdict requires guru mode; need stap -g");
      else if (t)
        fail(t->loc, "write to target variable not permitted; need stap -g");
      else if (c)
        fail(c->loc, c->kind == ast::CastExpr::Var
                         ? "write to @var variable not permitted; need stap -g"
                         : "write to @cast context variable not permitted; need stap -g");
      else
        fail(a->components.empty() ? a->loc : a->components.front().loc,
             "write not permitted; need stap -g");
      return;
    }
    AccessError err;
    std::optional<TypedResult> r;
    if (t) {
      if (!rp_)
        return; // a function's $var: already an error
      if (rp_->is_return && t->name != "$return") {
        fail(t->loc, "write to target variable not permitted in .return probes");
        return;
      }
      r = target_result(*rp_, *t, err);
    } else if (c) {
      r = cast_result(env_, *c, err);
    } else {
      if (!a->types)
        return; // passes/autocast.cpp reported it
      r = bound_autocast_result(*a, err);
    }
    if (!r) {
      if (!err.message.empty())
        fail(err.loc, err.message);
      return;
    }
    std::string why = unwritable(*r, written_name(w));
    if (!why.empty())
      fail(w->loc, why);
  }

  const probes::ResolveEnv &env_;
  const probes::ResolvedProbe *rp_;
  bool guru_;
  Diagnostics &diag_;
  std::set<ast::Expr *> reported_;
};

} // namespace

ast::Expr *written_target(ast::Expr *e) {
  if (dynamic_cast<ast::TargetExpr *>(e) || dynamic_cast<ast::CastExpr *>(e) ||
      dynamic_cast<ast::AutocastExpr *>(e))
    return e;
  return nullptr;
}

void check_target_writes(const probes::ResolveEnv &env, Program &program, bool guru_mode,
                         Diagnostics &diag) {
  std::map<ast::ProbeDecl *, bool> seen;
  for (const auto &rp : program.probes) {
    if (!rp.decl->body)
      continue;
    // Without -g the error is the same at every point: report it once.
    if (!guru_mode && seen[rp.decl])
      continue;
    seen[rp.decl] = true;
    unsigned before = diag.errors();
    Writes w(env, &rp, guru_mode, diag);
    rp.decl->body->accept(w);
    if (diag.errors() != before)
      break;
  }
  for (ast::FunctionDecl *fn : program.functions)
    if (fn->body) {
      Writes w(env, nullptr, guru_mode, diag);
      fn->body->accept(w);
    }
}

} // namespace stap
