#include "passes/print.h"

#include "ast/visitor.h"

#include <ostream>

namespace stap {
namespace {

std::string quote(const std::string &s) {
  std::string r = "\"";
  for (char c : s) {
    switch (c) {
    case '"': r += "\\\""; break;
    case '\\': r += "\\\\"; break;
    case '\n': r += "\\n"; break;
    case '\t': r += "\\t"; break;
    case '\r': r += "\\r"; break;
    default:
      if (static_cast<unsigned char>(c) < 0x20) {
        char buf[8];
        std::snprintf(buf, sizeof(buf), "\\%03o", static_cast<unsigned char>(c));
        r += buf;
      } else {
        r += c;
      }
    }
  }
  return r + "\"";
}

// Expressions print fully parenthesised, so precedence survives the round trip.
class Printer : public ast::Visitor {
public:
  std::string text;
  int indent = 0;

  void nl() { text += "\n" + std::string(static_cast<size_t>(indent) * 2, ' '); }
  void expr(ast::Expr *e) {
    if (e)
      e->accept(*this);
    else
      text += "*";
  }
  void list(const std::vector<ast::Expr *> &es) {
    for (size_t i = 0; i < es.size(); ++i) {
      if (i)
        text += ", ";
      expr(es[i]);
    }
  }
  void components(const std::vector<ast::TargetComponent> &cs) {
    for (const auto &c : cs) {
      if (c.kind == ast::TargetComponent::Member)
        text += "->" + c.name;
      else if (c.kind == ast::TargetComponent::Index) {
        text += "[";
        expr(c.index);
        text += "]";
      } else
        text += c.name;
    }
  }

  void visit(ast::NumberLit &n) override {
    text += n.spelling.empty() ? std::to_string(n.value) : n.spelling;
  }
  void visit(ast::StringLit &n) override { text += quote(n.value); }
  void visit(ast::UnaryExpr &n) override {
    text += "(" + n.op;
    expr(n.operand);
    text += ")";
  }
  void visit(ast::IncDecExpr &n) override {
    text += "(";
    if (n.prefix)
      text += n.op;
    expr(n.operand);
    if (!n.prefix)
      text += n.op;
    text += ")";
  }
  void visit(ast::BinaryExpr &n) override {
    text += "(";
    expr(n.left);
    text += " " + n.op + " ";
    expr(n.right);
    text += ")";
  }
  void visit(ast::TernaryExpr &n) override {
    text += "(";
    expr(n.cond);
    text += " ? ";
    expr(n.then_expr);
    text += " : ";
    expr(n.else_expr);
    text += ")";
  }
  void visit(ast::AssignExpr &n) override {
    text += "(";
    expr(n.target);
    text += " " + n.op + " ";
    expr(n.value);
    text += ")";
  }
  void visit(ast::SymbolExpr &n) override { text += n.name; }
  void visit(ast::IndexExpr &n) override {
    expr(n.base);
    text += "[";
    list(n.indexes);
    text += "]";
  }
  void visit(ast::CallExpr &n) override {
    text += n.name + "(";
    list(n.args);
    text += ")";
  }
  void visit(ast::InExpr &n) override {
    text += "([";
    list(n.keys);
    text += "] in ";
    expr(n.array);
    text += ")";
  }
  void visit(ast::TargetExpr &n) override {
    text += (n.addressof ? "&" : "") + n.name;
    components(n.components);
  }
  void visit(ast::CastExpr &n) override {
    text += n.addressof ? "&" : "";
    text += n.kind == ast::CastExpr::Cast ? "@cast(" : "@var(";
    if (n.operand) {
      expr(n.operand);
      text += ", ";
    }
    text += quote(n.type_or_var);
    if (n.module)
      text += ", " + quote(*n.module);
    text += ")";
    components(n.components);
  }
  void visit(ast::AtOpExpr &n) override {
    text += "@" + n.name;
    if (!n.args.empty() || n.name != "errno") {
      text += "(";
      list(n.args);
      text += ")";
    }
  }
  void visit(ast::StatExpr &n) override {
    text += "@" + n.op + "(";
    expr(n.stat);
    if (n.param) {
      text += ", ";
      expr(n.param);
    }
    text += ")";
  }
  void visit(ast::HistExpr &n) override {
    text += n.kind == ast::HistExpr::Log ? "@hist_log(" : "@hist_linear(";
    expr(n.stat);
    for (ast::Expr *p : n.params) {
      text += ", ";
      expr(p);
    }
    text += ")";
  }
  void visit(ast::EmbeddedExpr &n) override { text += "%{" + n.code + "%}"; }

  void visit(ast::BlockStmt &n) override {
    text += "{";
    ++indent;
    for (ast::Stmt *s : n.stmts) {
      nl();
      s->accept(*this);
    }
    --indent;
    nl();
    text += "}";
  }
  void visit(ast::ExprStmt &n) override { expr(n.expr); }
  void visit(ast::NullStmt &) override { text += ";"; }
  void visit(ast::IfStmt &n) override {
    text += "if (";
    expr(n.cond);
    text += ") ";
    n.then_stmt->accept(*this);
    if (n.else_stmt) {
      text += " else ";
      n.else_stmt->accept(*this);
    }
  }
  void visit(ast::WhileStmt &n) override {
    text += "while (";
    expr(n.cond);
    text += ") ";
    n.body->accept(*this);
  }
  void visit(ast::ForStmt &n) override {
    text += "for (";
    if (n.init) expr(n.init);
    text += "; ";
    if (n.cond) expr(n.cond);
    text += "; ";
    if (n.step) expr(n.step);
    text += ") ";
    n.body->accept(*this);
  }
  void visit(ast::ForeachStmt &n) override {
    auto sort = [&](int col) {
      if (n.sort_dir && n.sort_column == col)
        text += n.sort_dir > 0 ? "+" : "-";
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
    expr(n.array);
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
    n.body->accept(*this);
  }
  void visit(ast::BreakStmt &) override { text += "break"; }
  void visit(ast::ContinueStmt &) override { text += "continue"; }
  void visit(ast::NextStmt &) override { text += "next"; }
  void visit(ast::ReturnStmt &n) override {
    text += "return";
    if (n.value) {
      text += " ";
      expr(n.value);
    }
  }
  void visit(ast::DeleteStmt &n) override {
    text += "delete ";
    expr(n.target);
  }
  void visit(ast::TryStmt &n) override {
    text += "try ";
    n.try_block->accept(*this);
    text += " catch ";
    if (n.catch_var)
      text += "(" + n.catch_var->name + ") ";
    n.catch_block->accept(*this);
  }
  void visit(ast::EmbeddedStmt &n) override { text += "%{" + n.code + "%}"; }

  void point(ast::ProbePoint &p) {
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
  void points(const std::vector<ast::ProbePoint *> &ps) {
    for (size_t i = 0; i < ps.size(); ++i) {
      text += i ? ", " : "";
      point(*ps[i]);
    }
  }
  void visit(ast::ProbeDecl &n) override {
    text += "probe ";
    points(n.points);
    text += " ";
    n.body->accept(*this);
  }
  void visit(ast::ProbeAliasDecl &n) override {
    text += "probe ";
    points(n.names);
    text += n.epilogue ? " += " : " = ";
    points(n.targets);
    text += " ";
    n.body->accept(*this);
  }
  void visit(ast::FunctionDecl &n) override {
    auto type = [](ast::Type t, bool declared) {
      return declared ? std::string(":") + ast::type_name(t) : std::string();
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
    n.body->accept(*this);
  }
  void visit(ast::GlobalDecl &n) override {
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
  void visit(ast::EmbeddedDecl &n) override { text += "%{" + n.code + "%}"; }
};

} // namespace

void print_file(const ast::File &f, std::ostream &out) {
  Printer p;
  for (ast::Node *d : f.decls) {
    d->accept(p);
    p.text += "\n";
  }
  out << p.text;
}

std::string print_expr(ast::Expr &e) {
  Printer p;
  e.accept(p);
  return p.text;
}

} // namespace stap
