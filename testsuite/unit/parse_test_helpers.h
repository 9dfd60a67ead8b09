// Helpers for the parser's unit tests: parse script text as a user script
// and look at the -p1 text, the tree, or the diagnostics.
#pragma once
#include "ast/ast.h"
#include "parse/parser.h"
#include "passes/print.h"

#include <gtest/gtest.h>

#include <sstream>
#include <string>

namespace stap::parse_test {

struct Parsed {
  std::unique_ptr<ast::File> file;
  std::string printed; // -p1 output
  std::string errors;  // every diagnostic, as printed
};

// One arena for the whole test binary: nodes outlive each Parsed.
inline ast::Arena &test_arena() {
  static ast::Arena arena;
  return arena;
}

inline Parsed parse_text(const std::string &text, const parse::ParseOptions &opts = {},
                         bool privileged = false) {
  auto src = std::make_shared<SourceFile>("<input>", text, privileged);
  std::ostringstream errs;
  Diagnostics diag(errs);
  Parsed p;
  p.file = parse::parse_file(src, test_arena(), diag, opts);
  std::ostringstream out;
  print_file(*p.file, out);
  p.printed = out.str();
  p.errors = errs.str();
  return p;
}

// The first diagnostic's first line: "<input>:L:C: error: ...".
inline std::string first_error(const std::string &text, const parse::ParseOptions &opts = {}) {
  std::string e = parse_text(text, opts).errors;
  return e.substr(0, e.find('\n'));
}

// A fully parenthesised rendering of an expression tree, so a test can see
// how the grammar grouped operators (the -p1 printer drops parentheses).
inline std::string tree(ast::Expr *e) {
  using namespace ast;
  if (!e) return "*";
  if (auto *b = dynamic_cast<BinaryExpr *>(e))
    return "(" + tree(b->left) + " " + spelling(b->op) + " " + tree(b->right) + ")";
  if (auto *a = dynamic_cast<AssignExpr *>(e))
    return "(" + tree(a->target) + " " + spelling(a->op) + " " + tree(a->value) + ")";
  if (auto *u = dynamic_cast<UnaryExpr *>(e))
    return "(" + spelling(u->op) + tree(u->operand) + ")";
  if (auto *i = dynamic_cast<IncDecExpr *>(e))
    return "(" + (i->prefix ? spelling(i->op) + tree(i->operand)
                            : tree(i->operand) + spelling(i->op)) + ")";
  if (auto *t = dynamic_cast<TernaryExpr *>(e))
    return "(" + tree(t->cond) + " ? " + tree(t->then_expr) + " : " + tree(t->else_expr) + ")";
  if (auto *in = dynamic_cast<InExpr *>(e)) {
    std::string s = "([";
    for (size_t k = 0; k < in->keys.size(); ++k)
      s += (k ? ", " : "") + tree(in->keys[k]);
    return s + "] in " + tree(in->array) + ")";
  }
  return print_expr(*e);
}

// The expression statement `text` inside a probe body, as a tree.
inline std::string expr_tree(const std::string &text) {
  Parsed p = parse_text("probe begin { " + text + " }");
  EXPECT_EQ(p.errors, "") << text;
  if (p.file->probes.empty() || p.file->probes[0]->body->stmts.empty())
    return "<nothing parsed>";
  auto *s = dynamic_cast<ast::ExprStmt *>(p.file->probes[0]->body->stmts[0]);
  return s ? tree(s->expr) : "<not an expression statement>";
}

// The -p1 text of `text` placed in a probe body, without the probe around it.
inline std::string body(const std::string &text) {
  Parsed p = parse_text("probe begin {\n" + text + "\n}");
  EXPECT_EQ(p.errors, "") << text;
  std::string s = p.printed;
  size_t open = s.find("{\n"), close = s.rfind("\n}");
  if (open == std::string::npos || close == std::string::npos || close < open + 2)
    return "";
  std::string inner = s.substr(open + 2, close - open - 2);
  // Drop the probe body's own two-space indentation.
  std::string out;
  std::istringstream lines(inner);
  for (std::string line; std::getline(lines, line);)
    out += (out.empty() ? "" : "\n") + line.substr(std::min<size_t>(2, line.size()));
  return out;
}

} // namespace stap::parse_test
