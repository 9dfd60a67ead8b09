#include "passes/fold_constants.h"

#include "ast/rewrite.h"

#include <cstring>
#include <optional>

namespace stap {
namespace {

std::optional<int64_t> number(const ast::Expr *e) {
  if (auto *n = dynamic_cast<const ast::NumberLit *>(e))
    return n->value;
  return std::nullopt;
}

const ast::StringLit *string(const ast::Expr *e) { return dynamic_cast<const ast::StringLit *>(e); }

// a OP b on two longs as the generated C computes it; nothing when it
// must be left to run time (division by zero, an unknown operator).
std::optional<int64_t> fold_binary(ast::BinaryOp op, int64_t a, int64_t b) {
  using enum ast::BinaryOp;
  uint64_t ua = a, ub = b;
  switch (op) {
  case Add: return int64_t(ua + ub);
  case Sub: return int64_t(ua - ub);
  case Mul: return int64_t(ua * ub);
  case Div:
  case Mod:
    if (b == 0 || (a == INT64_MIN && b == -1))
      return std::nullopt;
    return op == Div ? a / b : a % b;
  case Shl: return int64_t(ua << (b & 63));
  case Shr: return a >> (b & 63);
  case ShrLogical: return int64_t(ua >> (b & 63));
  case BitAnd: return a & b;
  case BitOr: return a | b;
  case BitXor: return a ^ b;
  case LogAnd: return a && b;
  case LogOr: return a || b;
  case Lt: return a < b;
  case Le: return a <= b;
  case Gt: return a > b;
  case Ge: return a >= b;
  case Eq: return a == b;
  case Ne: return a != b;
  default: return std::nullopt;
  }
}

std::optional<int64_t> compare_strings(ast::BinaryOp op, const std::string &a,
                                       const std::string &b) {
  using enum ast::BinaryOp;
  int c = std::strcmp(a.c_str(), b.c_str());
  switch (op) {
  case Lt: return c < 0;
  case Le: return c <= 0;
  case Gt: return c > 0;
  case Ge: return c >= 0;
  case Eq: return c == 0;
  case Ne: return c != 0;
  default: return std::nullopt;
  }
}

class ConstantFolder : public ast::Rewriter {
public:
  explicit ConstantFolder(ast::Arena &a) : arena_(a) {}

protected:
  ast::Expr *rewrite(ast::Expr *e) override {
    if (auto *u = dynamic_cast<ast::UnaryExpr *>(e)) {
      if (auto v = number(u->operand)) {
        switch (u->op) {
        case ast::UnaryOp::Minus: return literal(e, int64_t(0 - uint64_t(*v)));
        case ast::UnaryOp::Plus: return literal(e, *v);
        case ast::UnaryOp::Not: return literal(e, !*v);
        case ast::UnaryOp::BitNot: return literal(e, ~*v);
        }
      }
      return e;
    }
    if (auto *b = dynamic_cast<ast::BinaryExpr *>(e))
      return binary(*b);
    if (auto *t = dynamic_cast<ast::TernaryExpr *>(e)) {
      if (auto c = number(t->cond))
        return *c ? t->then_expr : t->else_expr;
    }
    return e;
  }

  ast::Stmt *rewrite(ast::Stmt *s) override {
    if (auto *i = dynamic_cast<ast::IfStmt *>(s)) {
      if (auto c = number(i->cond)) {
        ast::Stmt *kept = *c ? i->then_stmt : i->else_stmt;
        return kept ? kept : null_stmt(s);
      }
    } else if (auto *w = dynamic_cast<ast::WhileStmt *>(s)) {
      if (number(w->cond) == 0)
        return null_stmt(s);
    } else if (auto *f = dynamic_cast<ast::ForStmt *>(s)) {
      if (f->cond && number(f->cond) == 0) {
        if (!f->init)
          return null_stmt(s);
        auto *init = arena_.make<ast::ExprStmt>(f->init->loc);
        init->expr = f->init;
        return init;
      }
    }
    return s;
  }

private:
  ast::Expr *binary(ast::BinaryExpr &b) {
    auto l = number(b.left), r = number(b.right);
    // The right operand of && and || only runs when the left one says so.
    if (l && b.op == ast::BinaryOp::LogAnd && *l == 0)
      return literal(&b, 0);
    if (l && b.op == ast::BinaryOp::LogOr && *l != 0)
      return literal(&b, 1);
    if (l && r) {
      if (auto v = fold_binary(b.op, *l, *r))
        return literal(&b, *v);
      return &b;
    }
    const ast::StringLit *ls = string(b.left), *rs = string(b.right);
    if (ls && rs)
      if (auto v = compare_strings(b.op, ls->value, rs->value))
        return literal(&b, *v);
    return &b;
  }

  ast::Expr *literal(ast::Expr *at, int64_t v) {
    auto *n = arena_.make<ast::NumberLit>(at->loc);
    n->value = v;
    n->spelling = std::to_string(v);
    return n;
  }
  ast::Stmt *null_stmt(ast::Stmt *at) { return arena_.make<ast::NullStmt>(at->loc); }

  ast::Arena &arena_;
};

} // namespace

void fold_constants(Program &program, ast::Arena &arena) {
  ConstantFolder f(arena);
  for (ast::ProbeDecl *p : program.files.front()->probes)
    f.body(p->body);
  for (const auto &file : program.files)
    for (ast::FunctionDecl *fn : file->functions)
      if (fn->body)
        fn->body = f.stmt(fn->body);
}

} // namespace stap
