#include "codegen/handler.h"

#include "ast/visitor.h"
#include "codegen/format.h"

#include <climits>

namespace stap::codegen {
namespace {

// Expressions become C expression strings; statements are emitted as lines.
class HandlerWriter : public ast::Visitor {
public:
  HandlerWriter(Emitter &out, Diagnostics &diag) : out_(out), diag_(diag) {}

  std::string expr(ast::Expr *e) {
    result_.clear();
    e->accept(*this);
    return result_;
  }

  // ---- statements
  void visit(ast::BlockStmt &n) override {
    for (ast::Stmt *s : n.stmts)
      s->accept(*this);
  }
  void visit(ast::NullStmt &) override {}
  void visit(ast::ExprStmt &n) override {
    begin_stmt(n);
    out_.line(expr(n.expr) + ";");
    end_stmt();
  }
  void visit(ast::IfStmt &n) override {
    begin_stmt(n);
    out_.open("if (" + expr(n.cond) + ")");
    n.then_stmt->accept(*this);
    if (n.else_stmt) {
      out_.close();
      out_.open("else");
      n.else_stmt->accept(*this);
    }
    out_.close();
  }
  void visit(ast::WhileStmt &n) override {
    begin_stmt(n);
    // Counting the condition too keeps even an empty loop bounded.
    out_.open("while (" + count(n.loc) + " && (" + expr(n.cond) + "))");
    n.body->accept(*this);
    out_.close();
    end_stmt();
  }
  void visit(ast::ForStmt &n) override {
    begin_stmt(n);
    std::string init = n.init ? expr(n.init) : "";
    std::string cond = count(n.loc) + (n.cond ? " && (" + expr(n.cond) + ")" : "");
    std::string step = n.step ? expr(n.step) : "";
    out_.open("for (" + init + "; " + cond + "; " + step + ")");
    n.body->accept(*this);
    out_.close();
    end_stmt();
  }
  void visit(ast::BreakStmt &n) override { begin_stmt(n); out_.line("break;"); }
  void visit(ast::ContinueStmt &n) override { begin_stmt(n); out_.line("continue;"); }
  void visit(ast::NextStmt &n) override { begin_stmt(n); out_.line("return;"); }

  // ---- expressions
  void visit(ast::NumberLit &n) override {
    result_ = n.value == INT64_MIN ? "((s64)(-9223372036854775807LL - 1))"
                                   : "((s64)" + std::to_string(n.value) + "LL)";
  }
  void visit(ast::StringLit &n) override { result_ = c_string_literal(n.value); }
  void visit(ast::UnaryExpr &n) override {
    result_ = "(" + n.op + "(" + expr(n.operand) + "))";
  }
  void visit(ast::BinaryExpr &n) override {
    std::string l = expr(n.left), r = expr(n.right);
    if (n.op == "/" || n.op == "%") {
      // Division by zero is a run-time error, never a kernel trap.
      result_ = std::string(n.op == "/" ? "stp_div" : "stp_mod") + "(c, " + l + ", " + r +
                ", " + c_string_literal(loc_string(n.loc)) + ")";
    } else if (n.left->type == ast::Type::String) {
      if (n.op == ".") {
        unsupported(n, "string concatenation of values");
        return;
      }
      result_ = "(strcmp(" + l + ", " + r + ") " + n.op + " 0)";
    } else if (n.op == ">>>") {
      result_ = "((s64)((u64)(" + l + ") >> (" + r + ")))";
    } else {
      result_ = "((s64)((" + l + ") " + n.op + " (" + r + ")))";
    }
  }
  void visit(ast::TernaryExpr &n) override {
    result_ = "((" + expr(n.cond) + ") ? (" + expr(n.then_expr) + ") : (" +
              expr(n.else_expr) + "))";
  }
  void visit(ast::CallExpr &n) override {
    if (n.name == "exit") {
      result_ = "stp_exit(c)";
    } else if (n.name == "printf") {
      std::string err;
      auto parsed = parse_format(static_cast<ast::StringLit *>(n.args[0])->value, err);
      KernelFormat k = kernel_format(*parsed);
      std::string call = "stp_printf(c, " + c_string_literal(k.format);
      for (size_t i = 1; i < n.args.size(); ++i)
        call += ", " + k.casts[i - 1] + expr(n.args[i]);
      result_ = call + ")";
    } else if (n.name == "print" || n.name == "println") {
      std::string fmt, args;
      for (ast::Expr *a : n.args) {
        fmt += a->type == ast::Type::String ? "%s" : "%lld";
        args += ", " + std::string(a->type == ast::Type::String ? "" : "(long long)") + expr(a);
      }
      if (n.name == "println")
        fmt += "\n";
      result_ = "stp_printf(c, " + c_string_literal(fmt) + args + ")";
    } else {
      unsupported(n, "call of '" + n.name + "'");
    }
  }

  // Everything the skeleton does not translate yet.
  void visit(ast::IncDecExpr &n) override { unsupported(n, "'" + n.op + "'"); }
  void visit(ast::AssignExpr &n) override { unsupported(n, "assignment"); }
  void visit(ast::SymbolExpr &n) override { unsupported(n, "variable '" + n.name + "'"); }
  void visit(ast::IndexExpr &n) override { unsupported(n, "array indexing"); }
  void visit(ast::InExpr &n) override { unsupported(n, "'in'"); }
  void visit(ast::TargetExpr &n) override { unsupported(n, "target variable " + n.name); }
  void visit(ast::CastExpr &n) override { unsupported(n, "@cast/@var"); }
  void visit(ast::AtOpExpr &n) override { unsupported(n, "@" + n.name); }
  void visit(ast::StatExpr &n) override { unsupported(n, "@" + n.op); }
  void visit(ast::HistExpr &n) override { unsupported(n, "histograms"); }
  void visit(ast::EmbeddedExpr &n) override { unsupported(n, "embedded C"); }
  void visit(ast::ForeachStmt &n) override { unsupported(n, "foreach"); }
  void visit(ast::ReturnStmt &n) override { unsupported(n, "return"); }
  void visit(ast::DeleteStmt &n) override { unsupported(n, "delete"); }
  void visit(ast::TryStmt &n) override { unsupported(n, "try/catch"); }
  void visit(ast::EmbeddedStmt &n) override { unsupported(n, "embedded C"); }

private:
  std::string count(const SourceLoc &loc) {
    return "stp_count_action(c, " + c_string_literal(loc_string(loc)) + ")";
  }
  void begin_stmt(ast::Stmt &s) {
    out_.line_directive(s.loc);
    out_.line("if (!" + count(s.loc) + ") return;");
  }
  void end_stmt() { out_.line("if (unlikely(c->last_error)) return;"); }
  void unsupported(ast::Node &n, const std::string &what) {
    diag_.error(n.loc, what + " is not supported by the translator yet");
    result_ = "0";
  }

  Emitter &out_;
  Diagnostics &diag_;
  std::string result_;
};

} // namespace

void emit_probe_handler(Emitter &out, const std::string &name, ast::BlockStmt &body,
                        Diagnostics &diag) {
  out.open("static void " + name + "(struct stp_context *c)");
  HandlerWriter w(out, diag);
  body.accept(w);
  out.close();
  out.blank();
}

} // namespace stap::codegen
