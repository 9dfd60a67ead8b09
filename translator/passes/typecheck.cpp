#include "passes/typecheck.h"

#include "ast/visitor.h"
#include "codegen/format.h"
#include "passes/builtins.h"

namespace stap {
namespace {

class TypeChecker : public ast::Visitor {
public:
  explicit TypeChecker(Diagnostics &d) : diag_(d) {}

  void visit(ast::NumberLit &n) override { n.type = ast::Type::Long; }
  void visit(ast::StringLit &n) override { n.type = ast::Type::String; }

  void visit(ast::UnaryExpr &n) override {
    Visitor::visit(n);
    expect(n.operand, ast::Type::Long, "operand of '" + n.op + "'");
    n.type = ast::Type::Long;
  }

  void visit(ast::BinaryExpr &n) override {
    Visitor::visit(n);
    static const std::string_view comparisons[] = {"<", ">", "<=", ">=", "==", "!="};
    bool comparison = false;
    for (auto c : comparisons)
      comparison |= n.op == c;
    if (n.op == ".") {
      expect(n.left, ast::Type::String, "left operand of '.'");
      expect(n.right, ast::Type::String, "right operand of '.'");
      n.type = ast::Type::String;
    } else if (comparison) {
      if (n.left->type != n.right->type && n.left->type != ast::Type::Unknown &&
          n.right->type != ast::Type::Unknown)
        diag_.error(n.loc, std::string("cannot compare ") + ast::type_name(n.left->type) +
                               " with " + ast::type_name(n.right->type));
      n.type = ast::Type::Long;
    } else {
      expect(n.left, ast::Type::Long, "left operand of '" + n.op + "'");
      expect(n.right, ast::Type::Long, "right operand of '" + n.op + "'");
      n.type = ast::Type::Long;
    }
  }

  void visit(ast::TernaryExpr &n) override {
    Visitor::visit(n);
    expect(n.cond, ast::Type::Long, "condition");
    if (n.then_expr->type != n.else_expr->type)
      diag_.error(n.loc, "the two branches of '?:' have different types");
    n.type = n.then_expr->type;
  }

  void visit(ast::CallExpr &n) override {
    Visitor::visit(n);
    const Builtin *b = find_builtin(n.name);
    if (!b) {
      diag_.error(n.loc, "unresolved function call '" + n.name + "'");
      return;
    }
    int argc = static_cast<int>(n.args.size());
    if (argc < b->min_args || (b->max_args >= 0 && argc > b->max_args)) {
      diag_.error(n.loc, "wrong number of arguments to '" + n.name + "'");
      return;
    }
    n.type = b->result;
    if (b->format)
      check_format(n);
  }

private:
  void expect(ast::Expr *e, ast::Type t, const std::string &what) {
    if (e && e->type != t && e->type != ast::Type::Unknown)
      diag_.error(e->loc, what + " must be " + ast::type_name(t) + ", not " +
                              ast::type_name(e->type));
  }

  void check_format(ast::CallExpr &n) {
    auto *fmt = dynamic_cast<ast::StringLit *>(n.args[0]);
    if (!fmt) {
      diag_.error(n.args[0]->loc, "the format of '" + n.name + "' must be a string literal");
      return;
    }
    std::string err;
    auto parsed = codegen::parse_format(fmt->value, err);
    if (!parsed) {
      diag_.error(fmt->loc, err);
      return;
    }
    size_t given = n.args.size() - 1;
    if (given != parsed->arg_types.size()) {
      diag_.error(n.loc, "format expects " + std::to_string(parsed->arg_types.size()) +
                             " argument(s), " + std::to_string(given) + " given");
      return;
    }
    for (size_t i = 0; i < given; ++i)
      expect(n.args[i + 1], parsed->arg_types[i], "argument " + std::to_string(i + 1) +
                                                     " of '" + n.name + "'");
  }

  Diagnostics &diag_;
};

} // namespace

void typecheck(Program &program, Diagnostics &diag) {
  TypeChecker tc(diag);
  for (ast::ProbeDecl *p : program.files.front()->probes)
    tc.visit_stmt(p->body);
}

} // namespace stap
