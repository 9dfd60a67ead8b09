// The grammar: tokens to an ast::File. Each rule carries its production.
//
// Errors throw a ParseError at the offending token ("expected X before Y");
// parse_file catches it at the declaration being parsed, reports it once,
// and resumes at the next top-level keyword, so independent mistakes in
// several declarations are all reported.
#include "parse/parser.h"

#include "parse/lexer.h"

#include <stdexcept>

namespace stap::parse {
namespace {

struct ParseError : std::runtime_error {
  SourceLoc loc;
  ParseError(SourceLoc l, const std::string &msg) : std::runtime_error(msg), loc(l) {}
};

std::string describe(const Token &t) {
  switch (t.kind) {
  case Tok::Ident: return "identifier '" + t.text + "'";
  case Tok::Number: return "number '" + t.text + "'";
  case Tok::String: return "string literal";
  case Tok::Op: return "'" + t.text + "'";
  case Tok::Embedded: return "embedded C";
  case Tok::End: return "end of input";
  }
  return "token";
}

bool is_keyword(const std::string &s) {
  static const char *const kw[] = {"probe",  "function", "global",   "private", "if",
                                   "else",   "for",      "foreach",  "in",      "limit",
                                   "while",  "break",    "continue", "next",    "return",
                                   "delete", "try",      "catch"};
  for (const char *k : kw)
    if (s == k)
      return true;
  return false;
}

class Parser {
public:
  Parser(std::shared_ptr<SourceFile> src, std::vector<Token> toks, ast::Arena &arena,
         Diagnostics &diag, const ParseOptions &opts)
      : src_(std::move(src)), toks_(std::move(toks)), arena_(arena), diag_(diag),
        opts_(opts) {}

  std::unique_ptr<ast::File> run();

private:
  // ---- token access
  const Token &peek(size_t ahead = 0) const {
    size_t i = std::min(pos_ + ahead, toks_.size() - 1);
    return toks_[i];
  }
  const Token &take() {
    const Token &t = peek();
    if (pos_ < toks_.size() - 1)
      ++pos_;
    return t;
  }
  bool is_op(const char *op, size_t ahead = 0) const {
    return peek(ahead).kind == Tok::Op && peek(ahead).text == op;
  }
  bool is_word(const char *w, size_t ahead = 0) const {
    return peek(ahead).kind == Tok::Ident && peek(ahead).text == w;
  }
  bool accept_op(const char *op) {
    if (!is_op(op))
      return false;
    take();
    return true;
  }
  bool accept_word(const char *w) {
    if (!is_word(w))
      return false;
    take();
    return true;
  }
  [[noreturn]] void expected(const std::string &what) {
    throw ParseError(peek().loc, "expected " + what + " before " + describe(peek()));
  }
  const Token &expect_op(const char *op) {
    if (!is_op(op))
      expected(std::string("'") + op + "'");
    return take();
  }
  std::string expect_ident(const char *what) {
    if (peek().kind != Tok::Ident || is_keyword(peek().text) || peek().text[0] == '@' ||
        peek().text[0] == '$')
      expected(what);
    return take().text;
  }

  template <typename T> T *make(const SourceLoc &loc) { return arena_.make<T>(loc); }

  // ---- declarations
  void declaration(ast::File &f);
  void probe_decl(ast::File &f);
  ast::ProbePoint *probe_point();
  void function_decl(ast::File &f, bool is_private);
  void global_decl(ast::File &f, bool is_private);
  ast::Expr *literal();
  void recover();

  // ---- statements
  ast::BlockStmt *block();
  ast::Stmt *statement();
  ast::Stmt *foreach_stmt(const SourceLoc &loc);

  // ---- expressions, lowest precedence first
  ast::Expr *expression();
  ast::Expr *assignment();
  ast::Expr *ternary();
  ast::Expr *binary(int level);
  ast::Expr *array_in();
  ast::Expr *unary();
  ast::Expr *postfix();
  ast::Expr *primary();
  ast::Expr *at_operator();
  ast::Expr *target_expr(bool addressof);
  void target_components(std::vector<ast::TargetComponent> &out);
  std::vector<ast::Expr *> index_list(bool wildcards);

  std::shared_ptr<SourceFile> src_;
  std::vector<Token> toks_;
  size_t pos_ = 0;
  ast::Arena &arena_;
  Diagnostics &diag_;
  const ParseOptions &opts_;
};

// file := { declaration }
std::unique_ptr<ast::File> Parser::run() {
  auto f = std::make_unique<ast::File>();
  f->source = src_;
  while (peek().kind != Tok::End) {
    size_t start = pos_;
    try {
      declaration(*f);
    } catch (const ParseError &e) {
      diag_.error(e.loc, e.what());
      if (pos_ == start)
        take();
      recover();
    }
  }
  return f;
}

// Skips to the next token that can start a declaration.
void Parser::recover() {
  while (peek().kind != Tok::End && !is_word("probe") && !is_word("function") &&
         !is_word("global") && !is_word("private") && peek().kind != Tok::Embedded)
    take();
}

// declaration := probe_decl | ["private"] function_decl | ["private"] global_decl
//              | embedded_c
void Parser::declaration(ast::File &f) {
  if (peek().kind == Tok::Embedded) {
    const Token &t = take();
    if (!src_->privileged() && !opts_.env.guru_mode)
      diag_.error(t.loc, "embedded C code is only allowed in guru mode (-g)");
    auto *e = make<ast::EmbeddedDecl>(t.loc);
    e->code = t.text;
    f.embeds.push_back(e);
    f.decls.push_back(e);
    return;
  }
  if (is_word("probe"))
    return probe_decl(f);
  bool is_private = accept_word("private");
  if (is_word("function"))
    return function_decl(f, is_private);
  if (is_word("global"))
    return global_decl(f, is_private);
  if (is_private && peek().kind == Tok::Ident && !is_keyword(peek().text)) {
    // `private x` declares a private global
    --pos_;
    return global_decl(f, true);
  }
  expected("'probe', 'function' or 'global'");
}

// probe_decl := "probe" probe_point { "," probe_point } block
//             | "probe" probe_point ("=" | "+=") probe_point { "," probe_point } block
void Parser::probe_decl(ast::File &f) {
  SourceLoc loc = take().loc;
  std::vector<ast::ProbePoint *> points{probe_point()};
  while (accept_op(","))
    points.push_back(probe_point());
  if (is_op("=") || is_op("+=")) {
    auto *a = make<ast::ProbeAliasDecl>(loc);
    a->epilogue = take().text == "+=";
    a->names = std::move(points);
    a->targets.push_back(probe_point());
    while (accept_op(","))
      a->targets.push_back(probe_point());
    a->body = block();
    a->file = src_.get();
    f.aliases.push_back(a);
    f.decls.push_back(a);
    return;
  }
  auto *p = make<ast::ProbeDecl>(loc);
  p->points = std::move(points);
  p->body = block();
  f.probes.push_back(p);
  f.decls.push_back(p);
}

// probe_point := component { "." component } [ "?" | "!" ] [ "if" "(" expression ")" ]
// component   := name_part { name_part } [ "(" literal ")" ]   (parts written without spaces)
// name_part   := identifier | number | "*"
ast::ProbePoint *Parser::probe_point() {
  auto *pp = make<ast::ProbePoint>(peek().loc);
  do {
    ast::ProbePointComponent c;
    c.loc = peek().loc;
    auto part = [&] {
      const Token &t = peek();
      return (t.kind == Tok::Ident && t.text[0] != '@' && t.text[0] != '$') ||
             (t.kind == Tok::Op && t.text == "*") ||
             (t.kind == Tok::Number && !c.functor.empty());
    };
    if (!part())
      expected("probe point component");
    c.functor += take().text;
    while (part() && !peek().space_before)
      c.functor += take().text;
    if (accept_op("(")) {
      c.arg = literal();
      expect_op(")");
    }
    pp->components.push_back(c);
  } while (accept_op("."));
  if (accept_op("?"))
    pp->optional = true;
  else if (accept_op("!"))
    pp->optional = pp->sufficient = true;
  if (accept_word("if")) {
    expect_op("(");
    pp->condition = expression();
    expect_op(")");
  }
  return pp;
}

// literal := ["-"] number | string { string }
ast::Expr *Parser::literal() {
  SourceLoc loc = peek().loc;
  bool neg = accept_op("-");
  if (peek().kind == Tok::Number) {
    auto *n = make<ast::NumberLit>(loc);
    const Token &t = take();
    n->value = neg ? static_cast<int64_t>(0 - static_cast<uint64_t>(t.number)) : t.number;
    n->spelling = (neg ? "-" : "") + t.text;
    return n;
  }
  if (!neg && peek().kind == Tok::String) {
    auto *s = make<ast::StringLit>(loc);
    while (peek().kind == Tok::String)
      s->value += take().text;
    return s;
  }
  expected("a number or a string");
}

// function_decl := "function" name [":" type] "(" [param {"," param}] ")" [":" number]
//                  (block | embedded_c)
// param := name [":" type]        type := "long" | "string"
void Parser::function_decl(ast::File &f, bool is_private) {
  SourceLoc loc = take().loc;
  auto *fn = make<ast::FunctionDecl>(loc);
  fn->is_private = is_private;
  fn->file = src_.get();
  fn->name = expect_ident("a function name");
  auto type = [&](ast::Type &t, bool &declared) {
    if (!accept_op(":"))
      return;
    std::string name = peek().kind == Tok::Ident ? peek().text : "";
    if (name == "long")
      t = ast::Type::Long;
    else if (name == "string")
      t = ast::Type::String;
    else
      expected("'long' or 'string'");
    take();
    declared = true;
  };
  type(fn->return_type, fn->declared_type);
  expect_op("(");
  if (!is_op(")")) {
    do {
      auto *v = make<ast::VarDecl>(peek().loc);
      v->name = expect_ident("a parameter name");
      type(v->type, v->declared_type);
      fn->params.push_back(v);
    } while (accept_op(","));
  }
  expect_op(")");
  if (accept_op(":")) {
    if (peek().kind != Tok::Number)
      expected("a priority number");
    fn->priority = take().number;
  }
  if (peek().kind == Tok::Embedded) {
    const Token &t = take();
    if (!src_->privileged() && !opts_.env.guru_mode)
      diag_.error(t.loc, "embedded C code is only allowed in guru mode (-g)");
    auto *e = make<ast::EmbeddedStmt>(t.loc);
    e->code = t.text;
    fn->body = e;
  } else {
    fn->body = block();
  }
  f.functions.push_back(fn);
  f.decls.push_back(fn);
}

// global_decl := "global" global_var { "," global_var }
// global_var  := name ["%"] ["[" number "]" ["%"]] ["=" literal]
void Parser::global_decl(ast::File &f, bool is_private) {
  take(); // "global" (or the "private" of `private x`)
  do {
    auto *g = make<ast::GlobalDecl>(peek().loc);
    g->is_private = is_private;
    g->file = src_.get();
    g->name = expect_ident("a global variable name");
    if (accept_op("%"))
      g->wrap = g->array = true;
    if (accept_op("[")) {
      if (peek().kind != Tok::Number)
        expected("an array size");
      auto *n = make<ast::NumberLit>(peek().loc);
      n->value = peek().number;
      n->spelling = take().text;
      g->size = n;
      g->array = true;
      expect_op("]");
      if (accept_op("%"))
        g->wrap = true;
    }
    if (accept_op("="))
      g->init = literal();
    f.globals.push_back(g);
    f.decls.push_back(g);
  } while (accept_op(","));
  accept_op(";");
}

// block := "{" { statement } "}"
ast::BlockStmt *Parser::block() {
  auto *b = make<ast::BlockStmt>(peek().loc);
  expect_op("{");
  while (!is_op("}")) {
    if (peek().kind == Tok::End)
      expected("'}'");
    b->stmts.push_back(statement());
  }
  take();
  return b;
}

// statement := block | ";" | if | while | for | foreach | "break" | "continue" | "next"
//            | "return" [expression] | "delete" expression | try | expression   [";"]
ast::Stmt *Parser::statement() {
  SourceLoc loc = peek().loc;
  ast::Stmt *s = nullptr;
  if (is_op("{"))
    return block();
  if (accept_op(";"))
    return make<ast::NullStmt>(loc);
  if (accept_word("if")) {
    // if := "if" "(" expression ")" statement ["else" statement]
    auto *n = make<ast::IfStmt>(loc);
    expect_op("(");
    n->cond = expression();
    expect_op(")");
    n->then_stmt = statement();
    if (accept_word("else"))
      n->else_stmt = statement();
    return n;
  }
  if (accept_word("while")) {
    // while := "while" "(" expression ")" statement
    auto *n = make<ast::WhileStmt>(loc);
    expect_op("(");
    n->cond = expression();
    expect_op(")");
    n->body = statement();
    return n;
  }
  if (accept_word("for")) {
    // for := "for" "(" [expression] ";" [expression] ";" [expression] ")" statement
    auto *n = make<ast::ForStmt>(loc);
    expect_op("(");
    if (!is_op(";"))
      n->init = expression();
    expect_op(";");
    if (!is_op(";"))
      n->cond = expression();
    expect_op(";");
    if (!is_op(")"))
      n->step = expression();
    expect_op(")");
    n->body = statement();
    return n;
  }
  if (accept_word("foreach"))
    return foreach_stmt(loc);
  if (accept_word("try")) {
    // try := "try" block "catch" ["(" name ")"] block
    auto *n = make<ast::TryStmt>(loc);
    n->try_block = block();
    if (!accept_word("catch"))
      expected("'catch'");
    if (accept_op("(")) {
      auto *v = make<ast::SymbolExpr>(peek().loc);
      v->name = expect_ident("a variable name");
      n->catch_var = v;
      expect_op(")");
    }
    n->catch_block = block();
    return n;
  }
  if (accept_word("break")) {
    s = make<ast::BreakStmt>(loc);
  } else if (accept_word("continue")) {
    s = make<ast::ContinueStmt>(loc);
  } else if (accept_word("next")) {
    s = make<ast::NextStmt>(loc);
  } else if (accept_word("return")) {
    auto *r = make<ast::ReturnStmt>(loc);
    if (!is_op(";") && !is_op("}"))
      r->value = expression();
    s = r;
  } else if (accept_word("delete")) {
    auto *d = make<ast::DeleteStmt>(loc);
    d->target = expression();
    s = d;
  } else {
    auto *e = make<ast::ExprStmt>(loc);
    e->expr = expression();
    s = e;
  }
  accept_op(";");
  return s;
}

// foreach := "foreach" "(" [name "="] (name | "[" name {"," name} "]") [sort]
//            "in" name ["[" slice "]"] [sort] ["limit" expression] ")" statement
// sort := "+" | "-"
ast::Stmt *Parser::foreach_stmt(const SourceLoc &loc) {
  auto *n = make<ast::ForeachStmt>(loc);
  expect_op("(");
  auto var = [&] {
    auto *v = make<ast::SymbolExpr>(peek().loc);
    v->name = expect_ident("a variable name");
    return v;
  };
  auto sort = [&](int column) {
    if (is_op("+") || is_op("-")) {
      if (n->sort_dir)
        throw ParseError(peek().loc, "only one sort order may be given in foreach");
      n->sort_dir = take().text == "+" ? 1 : -1;
      n->sort_column = column;
    }
  };
  if (peek().kind == Tok::Ident && is_op("=", 1)) {
    n->value = var();
    take();
  }
  if (accept_op("[")) {
    do {
      n->keys.push_back(var());
      sort(static_cast<int>(n->keys.size()));
    } while (accept_op(","));
    expect_op("]");
  } else {
    n->keys.push_back(var());
    sort(1);
  }
  if (!accept_word("in"))
    expected("'in'");
  if (is_word("@hist_log") || is_word("@hist_linear")) {
    n->array = primary();
  } else {
    auto *a = make<ast::SymbolExpr>(peek().loc);
    a->name = expect_ident("an array name");
    n->array = a;
    if (accept_op("[")) {
      n->slice = index_list(true);
      expect_op("]");
    }
  }
  sort(0);
  if (accept_word("limit"))
    n->limit = expression();
  expect_op(")");
  n->body = statement();
  return n;
}

// expression := assignment
ast::Expr *Parser::expression() { return assignment(); }

// assignment := ternary [assign_op assignment]
// assign_op  := "=" | "+=" | "-=" | "*=" | "/=" | "%=" | "<<=" | ">>=" | "&=" | "^="
//             | "|=" | ".=" | "<<<"
ast::Expr *Parser::assignment() {
  ast::Expr *left = ternary();
  static const char *const ops[] = {"=",   "+=", "-=", "*=", "/=", "%=", "<<=",
                                    ">>=", "&=", "^=", "|=", ".=", "<<<"};
  for (const char *op : ops) {
    if (is_op(op)) {
      auto *a = make<ast::AssignExpr>(left->loc);
      a->op = take().text;
      a->target = left;
      a->value = assignment();
      return a;
    }
  }
  return left;
}

// ternary := logical_or ["?" expression ":" ternary]
ast::Expr *Parser::ternary() {
  ast::Expr *cond = binary(0);
  if (!accept_op("?"))
    return cond;
  auto *t = make<ast::TernaryExpr>(cond->loc);
  t->cond = cond;
  t->then_expr = expression();
  expect_op(":");
  t->else_expr = ternary();
  return t;
}

// Binary levels, loosest first; all left-associative:
//   logical_or := logical_and {"||" logical_and}      logical_and := bit_or {"&&" bit_or}
//   bit_or := bit_xor {"|" bit_xor}   bit_xor := bit_and {"^" bit_and}
//   bit_and := array_in {"&" array_in}
//   (array_in)  comparison := shift {("<"|">"|"<="|">="|"=="|"!="|"=~"|"!~") shift}
//   shift := concat {("<<"|">>"|">>>") concat}   concat := additive {"." additive}
//   additive := multiplicative {("+"|"-") multiplicative}
//   multiplicative := unary {("*"|"/"|"%") unary}
ast::Expr *Parser::binary(int level) {
  static const std::vector<std::vector<const char *>> levels = {
      {"||"}, {"&&"}, {"|"}, {"^"}, {"&"}, {/* array_in */},
      {"<", ">", "<=", ">=", "==", "!=", "=~", "!~"},
      {"<<", ">>", ">>>"}, {"."}, {"+", "-"}, {"*", "/", "%"}};
  if (level == static_cast<int>(levels.size()))
    return unary();
  if (levels[level].empty())
    return array_in();
  ast::Expr *left = binary(level + 1);
  for (;;) {
    const char *found = nullptr;
    for (const char *op : levels[level])
      if (is_op(op))
        found = op;
    if (!found)
      return left;
    // Binary operators are located at the operator, as run-time errors
    // ("division by 0 near ...") are about the operator.
    auto *b = make<ast::BinaryExpr>(peek().loc);
    b->op = take().text;
    b->left = left;
    b->right = binary(level + 1);
    left = b;
  }
}

// array_in := comparison ["in" name]
//           | "[" index_list "]" "in" name
ast::Expr *Parser::array_in() {
  static const int comparison_level = 6;
  if (is_op("[")) {
    auto *n = make<ast::InExpr>(take().loc);
    n->keys = index_list(true);
    expect_op("]");
    if (!accept_word("in"))
      expected("'in'");
    auto *a = make<ast::SymbolExpr>(peek().loc);
    a->name = expect_ident("an array name");
    n->array = a;
    return n;
  }
  ast::Expr *e = binary(comparison_level);
  if (!is_word("in"))
    return e;
  take();
  auto *n = make<ast::InExpr>(e->loc);
  n->keys.push_back(e);
  auto *a = make<ast::SymbolExpr>(peek().loc);
  a->name = expect_ident("an array name");
  n->array = a;
  return n;
}

// unary := ("-" | "+" | "!" | "~") unary | ("++" | "--") unary | "&" target | postfix
ast::Expr *Parser::unary() {
  SourceLoc loc = peek().loc;
  for (const char *op : {"-", "+", "!", "~"}) {
    if (is_op(op)) {
      auto *u = make<ast::UnaryExpr>(loc);
      u->op = take().text;
      u->operand = unary();
      return u;
    }
  }
  if (is_op("++") || is_op("--")) {
    auto *n = make<ast::IncDecExpr>(loc);
    n->op = take().text;
    n->prefix = true;
    n->operand = unary();
    return n;
  }
  if (is_op("&") && peek(1).kind == Tok::Ident && peek(1).text[0] == '$') {
    take();
    return target_expr(true);
  }
  if (is_op("&") && (is_word("@cast", 1) || is_word("@var", 1))) {
    take();
    auto *c = static_cast<ast::CastExpr *>(at_operator());
    c->addressof = true;
    return c;
  }
  return postfix();
}

// postfix := primary ["++" | "--"]
ast::Expr *Parser::postfix() {
  ast::Expr *e = primary();
  if (is_op("++") || is_op("--")) {
    auto *n = make<ast::IncDecExpr>(e->loc);
    n->op = take().text;
    n->prefix = false;
    n->operand = e;
    return n;
  }
  return e;
}

// index_list := index {"," index}     index := expression | "*" (where allowed)
std::vector<ast::Expr *> Parser::index_list(bool wildcards) {
  std::vector<ast::Expr *> out;
  do {
    if (wildcards && is_op("*") && (is_op(",", 1) || is_op("]", 1))) {
      take();
      out.push_back(nullptr);
    } else {
      out.push_back(expression());
    }
  } while (accept_op(","));
  return out;
}

// primary := number | string {string} | "(" expression ")" | embedded_c
//          | name "(" [expression {"," expression}] ")" | name "[" index_list "]" | name
//          | target | at_operator
ast::Expr *Parser::primary() {
  const Token &t = peek();
  SourceLoc loc = t.loc;
  if (t.kind == Tok::Number || t.kind == Tok::String)
    return literal();
  if (t.kind == Tok::Embedded) {
    if (!src_->privileged() && !opts_.env.guru_mode)
      diag_.error(loc, "embedded C code is only allowed in guru mode (-g)");
    auto *e = make<ast::EmbeddedExpr>(loc);
    e->code = take().text;
    return e;
  }
  if (accept_op("(")) {
    ast::Expr *e = expression();
    expect_op(")");
    return e;
  }
  if (t.kind == Tok::Ident && t.text[0] == '$')
    return target_expr(false);
  if (t.kind == Tok::Ident && t.text[0] == '@')
    return at_operator();
  if (t.kind != Tok::Ident || is_keyword(t.text))
    expected("an expression");
  std::string name = take().text;
  if (accept_op("(")) {
    auto *c = make<ast::CallExpr>(loc);
    c->name = name;
    if (!is_op(")")) {
      do
        c->args.push_back(expression());
      while (accept_op(","));
    }
    expect_op(")");
    return c;
  }
  auto *sym = make<ast::SymbolExpr>(loc);
  sym->name = name;
  if (!is_op("["))
    return sym;
  auto *ix = make<ast::IndexExpr>(loc);
  take();
  ix->base = sym;
  ix->indexes = index_list(true);
  expect_op("]");
  return ix;
}

// target := "$name" components       components := { "->" name | "[" expression "]" } ["$" | "$$"]
ast::Expr *Parser::target_expr(bool addressof) {
  auto *t = make<ast::TargetExpr>(peek().loc);
  t->name = take().text;
  t->addressof = addressof;
  // `$x$` and `$x$$` lex as one identifier: split the pretty-print suffix off.
  for (const char *suffix : {"$$", "$"}) {
    size_t n = std::char_traits<char>::length(suffix);
    if (t->name.size() > n + 1 && t->name.compare(t->name.size() - n, n, suffix) == 0 &&
        t->name.rfind("$$", 0) != 0) {
      t->name.resize(t->name.size() - n);
      t->components.push_back({ast::TargetComponent::Pretty, suffix, nullptr, t->loc});
      return t;
    }
  }
  target_components(t->components);
  return t;
}

void Parser::target_components(std::vector<ast::TargetComponent> &out) {
  for (;;) {
    SourceLoc loc = peek().loc;
    if (accept_op("->")) {
      std::string name = peek().kind == Tok::Ident ? take().text : (expected("a member name"), "");
      // `->f$` lexes the suffix into the name.
      std::string suffix;
      while (!name.empty() && name.back() == '$') {
        suffix += '$';
        name.pop_back();
      }
      out.push_back({ast::TargetComponent::Member, name, nullptr, loc});
      if (!suffix.empty()) {
        out.push_back({ast::TargetComponent::Pretty, suffix, nullptr, loc});
        return;
      }
    } else if (accept_op("[")) {
      ast::Expr *index = expression();
      expect_op("]");
      out.push_back({ast::TargetComponent::Index, "", index, loc});
    } else if (is_op("$") && !peek().space_before) {
      take();
      std::string s = "$";
      if (is_op("$") && !peek().space_before) {
        take();
        s = "$$";
      }
      out.push_back({ast::TargetComponent::Pretty, s, nullptr, loc});
      return;
    } else {
      return;
    }
  }
}

// at_operator := ("@count" | "@sum" | "@min" | "@max" | "@avg") "(" expression ")"
//              | "@variance" "(" expression ["," expression] ")"
//              | "@hist_log" "(" expression ")" ["[" expression "]"]
//              | "@hist_linear" "(" expression "," expression "," expression "," expression ")"
//                ["[" expression "]"]
//              | "@cast" "(" expression "," string ["," string] ")" components
//              | "@var" "(" string ["," string] ")" components
//              | "@" name ["(" [expression {"," expression}] ")"]
ast::Expr *Parser::at_operator() {
  SourceLoc loc = peek().loc;
  std::string name = take().text.substr(1);
  auto args = [&] {
    std::vector<ast::Expr *> out;
    expect_op("(");
    if (!is_op(")")) {
      do
        out.push_back(expression());
      while (accept_op(","));
    }
    expect_op(")");
    return out;
  };
  if (name == "count" || name == "sum" || name == "min" || name == "max" || name == "avg" ||
      name == "variance") {
    auto *s = make<ast::StatExpr>(loc);
    s->op = name;
    auto a = args();
    if (a.empty() || a.size() > (name == "variance" ? 2u : 1u))
      throw ParseError(loc, "wrong number of arguments to @" + name);
    s->stat = a[0];
    s->param = a.size() > 1 ? a[1] : nullptr;
    return s;
  }
  if (name == "hist_log" || name == "hist_linear") {
    auto *h = make<ast::HistExpr>(loc);
    h->kind = name == "hist_log" ? ast::HistExpr::Log : ast::HistExpr::Linear;
    auto a = args();
    if (a.size() != (name == "hist_log" ? 1u : 4u))
      throw ParseError(loc, "wrong number of arguments to @" + name);
    h->stat = a[0];
    h->params.assign(a.begin() + 1, a.end());
    if (!is_op("["))
      return h;
    auto *ix = make<ast::IndexExpr>(loc);
    take();
    ix->base = h;
    ix->indexes.push_back(expression());
    expect_op("]");
    return ix;
  }
  if (name == "cast" || name == "var") {
    auto *c = make<ast::CastExpr>(loc);
    c->kind = name == "cast" ? ast::CastExpr::Cast : ast::CastExpr::Var;
    expect_op("(");
    if (c->kind == ast::CastExpr::Cast) {
      c->operand = expression();
      expect_op(",");
    }
    if (peek().kind != Tok::String)
      expected("a string");
    c->type_or_var = take().text;
    if (accept_op(",")) {
      if (peek().kind != Tok::String)
        expected("a module name string");
      c->module = take().text;
    }
    expect_op(")");
    target_components(c->components);
    return c;
  }
  auto *op = make<ast::AtOpExpr>(loc);
  op->name = name;
  if (is_op("("))
    op->args = args();
  return op;
}

} // namespace

std::unique_ptr<ast::File> parse_file(std::shared_ptr<SourceFile> src, ast::Arena &arena,
                                      Diagnostics &diag, const ParseOptions &opts) {
  std::vector<Token> toks = lex(*src, opts.script_args, diag);
  return Parser(src, std::move(toks), arena, diag, opts).run();
}

} // namespace stap::parse
