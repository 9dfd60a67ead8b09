// -p1: the parse tree printed back as script text.
//
// Expressions get parentheses only where the grammar needs them: every
// expression has the precedence level of the grammar rule that produces it,
// and a child printed at a position that needs a tighter level is wrapped.
// Parentheses make no node, so printing, parsing and printing again gives
// the same text.
#include "passes/print.h"

#include "ast/visitor.h"
#include "parse/lexer.h"

#include <ostream>

namespace stap {
namespace {

using namespace ast;

// Grammar levels, loosest first (see parse/expr_grammar.cpp).
enum Level {
  Assign = 1, Ternary, LogOr, LogAnd, BitOr, BitXor, BitAnd, In, Comparison, Shift,
  Concat, Additive, Multiplicative, Unary, Value, Primary
};

int binary_level(BinaryOp op) {
  switch (op) {
  case BinaryOp::LogOr: return LogOr;
  case BinaryOp::LogAnd: return LogAnd;
  case BinaryOp::BitOr: return BitOr;
  case BinaryOp::BitXor: return BitXor;
  case BinaryOp::BitAnd: return BitAnd;
  case BinaryOp::Shl: case BinaryOp::Shr: case BinaryOp::ShrLogical: return Shift;
  case BinaryOp::Concat: return Concat;
  case BinaryOp::Add: case BinaryOp::Sub: return Additive;
  case BinaryOp::Mul: case BinaryOp::Div: case BinaryOp::Mod: return Multiplicative;
  default: return Comparison; // < > <= >= == != =~ !~
  }
}

int level_of(const Expr *e) {
  if (!e) return Primary;
  if (dynamic_cast<const AssignExpr *>(e)) return Assign;
  if (dynamic_cast<const TernaryExpr *>(e)) return Ternary;
  if (auto *b = dynamic_cast<const BinaryExpr *>(e)) return binary_level(b->op);
  if (dynamic_cast<const InExpr *>(e)) return In;
  if (dynamic_cast<const UnaryExpr *>(e)) return Unary;
  if (auto *i = dynamic_cast<const IncDecExpr *>(e)) return i->prefix ? Unary : Value;
  if (auto *t = dynamic_cast<const TargetExpr *>(e)) return t->addressof ? Unary : Value;
  if (auto *c = dynamic_cast<const CastExpr *>(e)) return c->addressof ? Unary : Value;
  if (auto *a = dynamic_cast<const AutocastExpr *>(e)) return a->addressof ? Unary : Value;
  return Primary;
}

class Printer : public Visitor {
public:
  std::string text;

  // Prints `e` where the grammar expects level `need` or tighter.
  void expr(Expr *e, int need = Assign) {
    if (!e) {
      text += "*"; // wildcard index
      return;
    }
    bool paren = level_of(e) < need;
    if (paren) text += "(";
    e->accept(*this);
    if (paren) text += ")";
  }
  void list(const std::vector<Expr *> &es) {
    for (size_t i = 0; i < es.size(); ++i) {
      if (i) text += ", ";
      expr(es[i]);
    }
  }
  void components(const std::vector<TargetComponent> &cs) {
    for (const auto &c : cs) {
      if (c.kind == TargetComponent::Member) {
        text += "->" + c.name;
      } else if (c.kind == TargetComponent::Index) {
        text += "[";
        expr(c.index);
        text += "]";
      } else {
        text += c.name;
      }
    }
  }

  void visit(NumberLit &n) override {
    text += n.spelling.empty() ? std::to_string(n.value) : n.spelling;
  }
  void visit(StringLit &n) override { text += parse::quote_string(n.value); }
  void visit(UnaryExpr &n) override {
    text += spelling(n.op);
    // `- -x` must not become `--x`.
    int need = dynamic_cast<UnaryExpr *>(n.operand) || level_of(n.operand) == Unary ? Primary
                                                                                     : Unary;
    expr(n.operand, need);
  }
  void visit(IncDecExpr &n) override {
    if (n.prefix) text += spelling(n.op);
    expr(n.operand, Value);
    if (!n.prefix) text += spelling(n.op);
  }
  void visit(BinaryExpr &n) override {
    int level = binary_level(n.op);
    expr(n.left, level);
    text += " " + spelling(n.op) + " ";
    expr(n.right, level + 1);
  }
  void visit(TernaryExpr &n) override {
    expr(n.cond, LogOr);
    text += " ? ";
    expr(n.then_expr);
    text += " : ";
    expr(n.else_expr);
  }
  void visit(AssignExpr &n) override {
    expr(n.target, Ternary);
    text += " " + spelling(n.op) + " ";
    expr(n.value);
  }
  void visit(SymbolExpr &n) override { text += n.name; }
  void visit(IndexExpr &n) override {
    expr(n.base, Primary);
    text += "[";
    list(n.indexes);
    text += "]";
  }
  void visit(CallExpr &n) override {
    text += n.name + "(";
    list(n.args);
    text += ")";
  }
  void visit(InExpr &n) override {
    if (n.keys.size() == 1 && n.keys[0]) {
      expr(n.keys[0], Comparison);
    } else {
      text += "[";
      list(n.keys);
      text += "]";
    }
    text += " in ";
    expr(n.array, Primary);
  }
  void visit(TargetExpr &n) override {
    text += (n.addressof ? "&" : "") + n.name;
    components(n.components);
  }
  void visit(CastExpr &n) override {
    text += n.addressof ? "&" : "";
    text += n.kind == CastExpr::Cast ? "@cast(" : "@var(";
    if (n.operand) {
      expr(n.operand);
      text += ", ";
    }
    text += parse::quote_string(n.type_or_var);
    if (n.module)
      text += ", " + parse::quote_string(*n.module);
    text += ")";
    components(n.components);
  }
  void visit(AutocastExpr &n) override {
    text += n.addressof ? "&" : "";
    // `x[i]` would index an array: `(x)[i]` indexes the value as a target.
    bool index_first = !n.components.empty() && n.components[0].kind == TargetComponent::Index;
    expr(n.operand, index_first || n.components.empty() ? Primary + 1 : Value);
    components(n.components);
  }
  void visit(AtOpExpr &n) override {
    text += "@" + n.name;
    if (!n.args.empty() || n.name != "errno") {
      text += "(";
      list(n.args);
      text += ")";
    }
  }
  void visit(StatExpr &n) override {
    text += "@" + spelling(n.op) + "(";
    expr(n.stat);
    if (n.param) {
      text += ", ";
      expr(n.param);
    }
    text += ")";
  }
  void visit(HistExpr &n) override {
    text += n.kind == HistExpr::Log ? "@hist_log(" : "@hist_linear(";
    expr(n.stat);
    for (Expr *p : n.params) {
      text += ", ";
      expr(p);
    }
    text += ")";
  }
  void visit(EmbeddedExpr &n) override { text += "%{" + n.code + "%}"; }

  // ---------------------------------------------------------- statements

  int indent = 0;
  void newline() { text += "\n" + std::string(static_cast<size_t>(indent) * 2, ' '); }
  void stmt(Stmt *s) { s->accept(*this); }

  void visit(BlockStmt &n) override {
    text += "{";
    ++indent;
    for (Stmt *s : n.stmts) {
      newline();
      stmt(s);
    }
    --indent;
    newline();
    text += "}";
  }
  // Simple statements end in ';', so the next statement cannot continue them.
  void visit(ExprStmt &n) override {
    expr(n.expr);
    text += ";";
  }
  void visit(NullStmt &) override { text += ";"; }
  void visit(IfStmt &n) override {
    text += "if (";
    expr(n.cond);
    text += ") ";
    stmt(n.then_stmt);
    if (n.else_stmt) {
      text += " else ";
      stmt(n.else_stmt);
    }
  }
  void visit(WhileStmt &n) override {
    text += "while (";
    expr(n.cond);
    text += ") ";
    stmt(n.body);
  }
  void visit(ForStmt &n) override {
    text += "for (";
    if (n.init) expr(n.init);
    text += "; ";
    if (n.cond) expr(n.cond);
    text += "; ";
    if (n.step) expr(n.step);
    text += ") ";
    stmt(n.body);
  }
  void visit(ForeachStmt &n) override {
    auto sort = [&](int column) {
      if (n.sort_dir && n.sort_column == column) {
        if (column == 0 && n.sort_aggr)
          text += " @" + spelling(*n.sort_aggr);
        text += n.sort_dir > 0 ? "+" : "-";
      }
    };
    text += "foreach (";
    if (n.value)
      text += n.value->name + " = ";
    text += "[";
    for (size_t i = 0; i < n.keys.size(); ++i) {
      text += (i ? ", " : "") + n.keys[i]->name;
      sort(static_cast<int>(i + 1));
    }
    text += "] in ";
    expr(n.array, Primary);
    if (!n.slice.empty()) {
      text += "[";
      list(n.slice);
      text += "]";
    }
    sort(0);
    if (n.limit) {
      text += " limit ";
      expr(n.limit);
    }
    text += ") ";
    stmt(n.body);
  }
  void visit(BreakStmt &) override { text += "break;"; }
  void visit(ContinueStmt &) override { text += "continue;"; }
  void visit(NextStmt &) override { text += "next;"; }
  void visit(ReturnStmt &n) override {
    text += "return";
    if (n.value) {
      text += " ";
      expr(n.value);
    }
    text += ";";
  }
  void visit(DeleteStmt &n) override {
    text += "delete ";
    expr(n.target);
    text += ";";
  }
  void visit(TryStmt &n) override {
    text += "try ";
    stmt(n.try_block);
    text += " catch ";
    if (n.catch_var)
      text += "(" + n.catch_var->name + ") ";
    stmt(n.catch_block);
  }
  void visit(EmbeddedStmt &n) override { text += "%{" + n.code + "%}"; }

  // ---------------------------------------------------------- declarations

  void point(ProbePoint &p) {
    for (size_t i = 0; i < p.components.size(); ++i) {
      const auto &c = p.components[i];
      text += (i ? "." : "") + c.functor;
      if (c.arg) {
        text += "(";
        expr(c.arg);
        text += ")";
      }
    }
    text += p.sufficient ? "!" : p.optional ? "?" : "";
    if (p.condition) {
      text += " if (";
      expr(p.condition);
      text += ")";
    }
  }
  void points(const std::vector<ProbePoint *> &ps) {
    for (size_t i = 0; i < ps.size(); ++i) {
      text += i ? ", " : "";
      point(*ps[i]);
    }
  }
  void visit(ProbeDecl &n) override {
    text += "probe ";
    points(n.points);
    text += " ";
    stmt(n.body);
  }
  void visit(ProbeAliasDecl &n) override {
    text += "probe ";
    points(n.names);
    text += n.epilogue ? " += " : " = ";
    points(n.targets);
    text += " ";
    stmt(n.body);
    if (n.epilogue_body) {
      text += ", ";
      stmt(n.epilogue_body);
    }
  }
  void visit(FunctionDecl &n) override {
    auto type = [](Type t, bool declared) {
      return declared ? std::string(":") + type_name(t) : std::string();
    };
    text += std::string(n.is_private ? "private " : "") + "function " + n.name +
            type(n.return_type, n.declared_type) + " (";
    for (size_t i = 0; i < n.params.size(); ++i)
      text += (i ? ", " : "") + n.params[i]->name +
              type(n.params[i]->type, n.params[i]->declared_type);
    text += ")";
    if (n.priority)
      text += ":" + std::to_string(*n.priority);
    text += " ";
    stmt(n.body);
  }
  void visit(GlobalDecl &n) override {
    text += std::string(n.is_private ? "private " : "") + "global " + n.name;
    if (n.size) {
      text += "[";
      expr(n.size);
      text += "]";
    }
    if (n.wrap)
      text += "%";
    if (n.init) {
      text += " = ";
      expr(n.init);
    }
  }
  void visit(EmbeddedDecl &n) override { text += "%{" + n.code + "%}"; }
};

} // namespace

void print_file(const File &f, std::ostream &out) {
  Printer p;
  for (Node *d : f.decls) {
    d->accept(p);
    p.text += "\n";
  }
  out << p.text;
}

std::string print_expr(Expr &e) {
  Printer p;
  p.expr(&e);
  return p.text;
}

} // namespace stap
