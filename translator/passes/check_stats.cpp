#include "passes/check_stats.h"

#include "ast/visitor.h"

#include <optional>
#include <set>

namespace stap {
namespace {

using Shape = ast::GlobalDecl::StatShape;

// Linear histograms have (stop - start) / interval + 1 buckets plus the
// underflow and overflow ones, at most STP_MAX_BUCKETS (runtime/stat.h).
constexpr int64_t kMaxBuckets = 128;

// A literal number, possibly negated.
std::optional<int64_t> literal(ast::Expr *e) {
  if (auto *n = dynamic_cast<ast::NumberLit *>(e))
    return n->value;
  if (auto *u = dynamic_cast<ast::UnaryExpr *>(e); u && u->op == ast::UnaryOp::Minus)
    if (auto v = literal(u->operand); v && *v != INT64_MIN)
      return -*v;
  return std::nullopt;
}

// The global a statistics operand names: `x` or `A[...]`.
ast::GlobalDecl *stat_global(ast::Expr *e) {
  if (auto *ix = dynamic_cast<ast::IndexExpr *>(e))
    e = ix->base;
  auto *s = dynamic_cast<ast::SymbolExpr *>(e);
  return s ? s->global : nullptr;
}

class StatRules : public ast::Visitor {
public:
  explicit StatRules(Diagnostics &d) : diag_(d) {}

  // A histogram is no value: it can only be printed whole (the one
  // argument of print, println, sprint, sprintln), indexed by bucket or
  // iterated over, as in SystemTap 4.8 (which rejects it elsewhere).
  void visit(ast::CallExpr &n) override {
    static const std::set<std::string> printers = {"print", "println", "sprint", "sprintln"};
    if (n.args.size() == 1 && printers.count(n.name))
      allow(n.args[0]);
    Visitor::visit(n);
  }
  void visit(ast::IndexExpr &n) override {
    allow(n.base);
    Visitor::visit(n);
  }
  void visit(ast::ForeachStmt &n) override {
    allow(n.array);
    Visitor::visit(n);
  }

  void visit(ast::HistExpr &n) override {
    if (!allowed_.count(&n))
      diag_.error(n.loc, "a histogram can only be printed whole (print, println, sprint, "
                         "sprintln), indexed by bucket ([i]) or iterated (foreach)");
    Visitor::visit(n);
    ast::GlobalDecl *g = stat_global(n.stat);
    if (!g) {
      diag_.error(n.stat->loc, "a histogram needs a statistics global variable");
      return;
    }
    Shape want;
    want.hist = n.kind == ast::HistExpr::Log ? Shape::Log : Shape::Linear;
    if (want.hist == Shape::Linear) {
      int64_t v[3];
      for (size_t i = 0; i < 3; ++i) {
        auto lit = i < n.params.size() ? literal(n.params[i]) : std::nullopt;
        if (!lit) {
          diag_.error(i < n.params.size() ? n.params[i]->loc : n.loc,
                      "@hist_linear parameters must be literal numbers");
          return;
        }
        v[i] = *lit;
      }
      want.start = v[0], want.stop = v[1], want.interval = v[2];
      if (want.interval <= 0) {
        diag_.error(n.params[2]->loc, "@hist_linear interval must be positive");
        return;
      }
      if (want.stop <= want.start) {
        diag_.error(n.params[1]->loc, "@hist_linear stop must be greater than start");
        return;
      }
      uint64_t span = static_cast<uint64_t>(want.stop) - static_cast<uint64_t>(want.start);
      if (span / static_cast<uint64_t>(want.interval) > kMaxBuckets - 3) {
        diag_.error(n.loc, "@hist_linear has " + std::to_string(span / want.interval + 1) +
                               " buckets, at most " + std::to_string(kMaxBuckets - 2) +
                               " are allowed: (stop - start) / interval must be at most " +
                               std::to_string(kMaxBuckets - 3));
        return;
      }
    }
    Shape &have = g->stat;
    if (have.hist == Shape::None) {
      have.hist = want.hist;
      have.start = want.start, have.stop = want.stop, have.interval = want.interval;
    } else if (have.hist != want.hist || have.start != want.start || have.stop != want.stop ||
               have.interval != want.interval) {
      diag_.error(n.loc, "multiple histogram types declared on '" + g->name +
                             "': all @hist_* of a variable must be the same");
    }
  }

  void visit(ast::StatExpr &n) override {
    Visitor::visit(n);
    if (n.op != ast::StatOp::Variance)
      return;
    ast::GlobalDecl *g = stat_global(n.stat);
    if (!g)
      return;
    int64_t shift = 0;
    if (n.param) {
      auto lit = literal(n.param);
      if (!lit || *lit < 0 || *lit > 62) {
        diag_.error(n.param->loc, "@variance bit shift must be a literal number from 0 to 62");
        return;
      }
      shift = *lit;
    }
    if (g->stat.variance && g->stat.shift != shift) {
      diag_.error(n.loc, "conflicting @variance bit shifts for '" + g->name + "': " +
                             std::to_string(g->stat.shift) + " and " + std::to_string(shift));
      return;
    }
    g->stat.variance = true;
    g->stat.shift = static_cast<int>(shift);
  }

private:
  void allow(ast::Expr *e) {
    if (auto *h = dynamic_cast<ast::HistExpr *>(e))
      allowed_.insert(h);
  }

  Diagnostics &diag_;
  std::set<const ast::HistExpr *> allowed_;
};

} // namespace

void check_stats(Program &program, Diagnostics &diag) {
  StatRules rules(diag);
  for (ast::FunctionDecl *fn : program.functions)
    rules.visit_stmt(fn->body);
  for (ast::ProbeDecl *p : program.files.front()->probes)
    rules.visit_stmt(p->body);
  for_each_local(program, [&](ast::VarDecl *v) {
    if (v->type == ast::Type::Stats)
      diag.error(v->loc, "'" + v->name + "' holds statistics: it must be a global variable");
  });
}

} // namespace stap
