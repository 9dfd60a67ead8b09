#include "passes/infer_types.h"

#include "ast/visitor.h"
#include "lang/builtins.h"
#include "lang/printf_format.h"
#include "lang/regex.h"

#include <set>

namespace stap {
namespace {

using ast::Type;

class TypeInference : public ast::Visitor {
public:
  explicit TypeInference(Diagnostics &d) : diag_(d) {}

  // One sweep over everything; returns whether any type was learned.
  bool sweep(Program &p, bool final_round) {
    changed_ = false;
    final_ = final_round;
    // `global x = 5` / `global s = "a"`: the initializer gives the type.
    for (ast::GlobalDecl *g : p.globals)
      if (g->init && g->type == Type::Unknown) {
        g->type = dynamic_cast<ast::StringLit *>(g->init) ? Type::String : Type::Long;
        changed_ = true;
      }
    for (ast::FunctionDecl *fn : p.functions) {
      fn_ = fn;
      visit_stmt(fn->body);
    }
    fn_ = nullptr;
    for (ast::ProbeDecl *pr : p.files.front()->probes)
      visit_stmt(pr->body);
    return changed_;
  }

  // ---- expressions: each visit sets n.type when it can
  void visit(ast::NumberLit &n) override { n.type = Type::Long; }
  void visit(ast::StringLit &n) override { n.type = Type::String; }
  // `%{ C %}` in an expression: a number, or a string when its code says
  // /* string */ (as SystemTap 4.8).
  void visit(ast::EmbeddedExpr &n) override {
    n.type = n.code.find("/* string */") != std::string::npos ? Type::String : Type::Long;
  }

  void visit(ast::SymbolExpr &n) override {
    Type *slot = n.local ? &n.local->type : n.global ? &n.global->type : nullptr;
    if (!slot)
      return;
    learn(n, *slot);
    learn_slot(*slot, n.type, n);
  }

  void visit(ast::UnaryExpr &n) override {
    Visitor::visit(n);
    want(n.operand, Type::Long, "operand of unary '" + ast::spelling(n.op) + "'");
    set(n, Type::Long);
  }
  void visit(ast::IncDecExpr &n) override {
    Visitor::visit(n);
    want(n.operand, Type::Long, "operand of '" + ast::spelling(n.op) + "'");
    set(n, Type::Long);
  }

  void visit(ast::BinaryExpr &n) override {
    Visitor::visit(n);
    const std::string op = ast::spelling(n.op);
    if (n.op == ast::BinaryOp::Concat) {
      want(n.left, Type::String, "left operand of '.'");
      want(n.right, Type::String, "right operand of '.'");
      set(n, Type::String);
    } else if (n.op == ast::BinaryOp::Match || n.op == ast::BinaryOp::NoMatch) {
      want(n.left, Type::String, "left operand of '" + op + "'");
      want(n.right, Type::String, "right operand of '" + op + "'");
      set(n, Type::Long);
      check_regex(n);
    } else if (ast::is_comparison(n.op)) {
      unify(n.left, n.right, "operands of '" + op + "'");
      set(n, Type::Long);
    } else {
      want(n.left, Type::Long, "left operand of '" + op + "'");
      want(n.right, Type::Long, "right operand of '" + op + "'");
      set(n, Type::Long);
    }
  }

  void visit(ast::TernaryExpr &n) override {
    Visitor::visit(n);
    want(n.cond, Type::Long, "condition of '?:'");
    unify(n.then_expr, n.else_expr, "branches of '?:'");
    if (n.then_expr->type != Type::Unknown)
      set(n, n.then_expr->type);
    push_down(n.then_expr, n.type);
    push_down(n.else_expr, n.type);
  }

  void visit(ast::AssignExpr &n) override {
    Visitor::visit(n);
    const std::string op = ast::spelling(n.op);
    if (n.op == ast::AssignOp::Aggregate) {
      set_target(n.target, Type::Stats);
      want(n.value, Type::Long, "value aggregated with '<<<'");
      set(n, Type::Long);
      return;
    }
    if (n.op == ast::AssignOp::Concat) {
      want(n.target, Type::String, "target of '.='");
      want(n.value, Type::String, "value of '.='");
    } else if (n.op != ast::AssignOp::Assign) {
      want(n.target, Type::Long, "target of '" + op + "'");
      want(n.value, Type::Long, "value of '" + op + "'");
    }
    if (n.target->type == Type::Stats || n.value->type == Type::Stats) {
      diag_once(n, "statistics can only be given values with '<<<'");
      return;
    }
    unify(n.target, n.value, "both sides of '" + op + "'");
    if (n.value->type != Type::Unknown && n.target->type == Type::Unknown)
      set_target(n.target, n.value->type);
    if (n.target->type != Type::Unknown)
      set(n, n.target->type);
  }

  void visit(ast::IndexExpr &n) override {
    Visitor::visit(n);
    if (dynamic_cast<ast::HistExpr *>(n.base)) { // a histogram bucket's count
      for (ast::Expr *i : n.indexes)
        want(i, Type::Long, "histogram bucket index");
      set(n, Type::Long);
      return;
    }
    auto *sym = dynamic_cast<ast::SymbolExpr *>(n.base);
    if (!sym || !sym->global)
      return;
    ast::GlobalDecl *g = sym->global;
    if (g->key_types.empty())
      g->key_types.resize(n.indexes.size(), Type::Unknown);
    if (g->key_types.size() != n.indexes.size()) {
      diag_once(n, "array '" + g->name + "' is indexed with " +
                       std::to_string(n.indexes.size()) + " key(s) here but " +
                       std::to_string(g->key_types.size()) + " elsewhere");
      return;
    }
    for (size_t i = 0; i < n.indexes.size(); ++i)
      if (n.indexes[i])
        meet(g->key_types[i], n.indexes[i], "key " + std::to_string(i + 1) + " of '" + g->name + "'");
    if (g->type != Type::Unknown)
      set(n, g->type);
  }

  void visit(ast::InExpr &n) override {
    for (ast::Expr *k : n.keys)
      visit_expr(k);
    if (auto *sym = dynamic_cast<ast::SymbolExpr *>(n.array); sym && sym->global) {
      ast::GlobalDecl *g = sym->global;
      if (g->key_types.empty())
        g->key_types.resize(n.keys.size(), Type::Unknown);
      for (size_t i = 0; i < n.keys.size() && i < g->key_types.size(); ++i)
        if (n.keys[i])
          meet(g->key_types[i], n.keys[i], "key " + std::to_string(i + 1) + " of '" + g->name + "'");
    }
    set(n, Type::Long);
  }

  void visit(ast::StatExpr &n) override {
    Visitor::visit(n);
    set_target(n.stat, Type::Stats);
    set(n, Type::Long);
  }
  void visit(ast::HistExpr &n) override {
    Visitor::visit(n);
    set_target(n.stat, Type::Stats);
    for (ast::Expr *e : n.params)
      want(e, Type::Long, "histogram parameter");
  }

  // @entry(e) (rewritten by passes/entry_values.cpp) is e's value.
  void visit(ast::AtOpExpr &n) override {
    Visitor::visit(n);
    if (n.name == "entry" && n.args.size() == 1) {
      set(n, n.args[0]->type);
      set(*n.args[0], n.type);
    }
    // @perf("NAME"): a counter's value (passes/perf_counters.cpp).
    if (n.name == "perf")
      set(n, Type::Long);
    // Register and memory fetches (passes/check_fetches.cpp): numbers.
    if (n.name == "kregister" || n.name == "uregister" || n.name == "kderef" ||
        n.name == "uderef") {
      set(n, Type::Long);
      for (ast::Expr *e : n.args)
        want(e, Type::Long, "argument of @" + n.name);
    }
  }

  void visit(ast::CallExpr &n) override {
    Visitor::visit(n);
    if (n.callee) {
      // Overloads share the call's arguments and its value: one type each.
      for (ast::FunctionDecl *fn : n.overloads) {
        for (size_t i = 0; i < n.args.size() && i < fn->params.size(); ++i)
          meet(fn->params[i]->type, n.args[i],
               "argument " + std::to_string(i + 1) + " of '" + n.name + "'");
        if (fn->return_type != Type::Unknown)
          set(n, fn->return_type);
      }
      for (ast::FunctionDecl *fn : n.overloads) {
        learn_slot(fn->return_type, n.type, n);
        if (fn->return_type != n.type)
          mismatch(*fn, "the value of overloaded function '" + n.name + "'", n.type,
                   fn->return_type);
      }
      return;
    }
    const lang::Builtin *b = lang::find_builtin(n.name);
    if (!b)
      return;
    int argc = static_cast<int>(n.args.size());
    if (argc < b->min_args || (b->max_args >= 0 && argc > b->max_args)) {
      diag_once(n, "wrong number of arguments to '" + n.name + "'");
      return;
    }
    if (b->result != Type::Unknown)
      set(n, b->result);
    if (b->format)
      check_format(n);
    if (lang::is_delimited_print(n.name)) {
      if (!dynamic_cast<ast::StringLit *>(n.args[0]))
        diag_once(*n.args[0], "the delimiter of '" + n.name + "' must be a string literal");
      for (size_t i = 1; i < n.args.size(); ++i)
        if (n.args[i]->type == Type::Stats)
          mismatch(*n.args[i], "argument " + std::to_string(i + 1) + " of '" + n.name + "'",
                   Type::Long, Type::Stats);
    }
  }

  // ---- statements that carry types
  void visit(ast::ReturnStmt &n) override {
    Visitor::visit(n);
    if (!fn_ || !n.value)
      return;
    meet(fn_->return_type, n.value, "return value of '" + fn_->name + "'");
  }
  void visit(ast::IfStmt &n) override {
    Visitor::visit(n);
    want(n.cond, Type::Long, "condition");
  }
  void visit(ast::TryStmt &n) override {
    Visitor::visit(n);
    if (n.catch_var)
      set_target(n.catch_var, Type::String); // the error message
  }
  void visit(ast::WhileStmt &n) override {
    Visitor::visit(n);
    want(n.cond, Type::Long, "condition");
  }
  void visit(ast::ForeachStmt &n) override {
    Visitor::visit(n);
    want(n.limit, Type::Long, "foreach limit"); // as SystemTap 4.8
    if (dynamic_cast<ast::HistExpr *>(n.array)) { // over bucket numbers
      for (ast::SymbolExpr *k : n.keys)
        set_target(k, Type::Long);
      if (n.value)
        set_target(n.value, Type::Long);
      return;
    }
    auto *sym = dynamic_cast<ast::SymbolExpr *>(n.array);
    if (!sym || !sym->global)
      return;
    ast::GlobalDecl *g = sym->global;
    if (g->key_types.empty())
      g->key_types.resize(n.keys.size(), Type::Unknown);
    for (size_t i = 0; i < n.keys.size() && i < g->key_types.size(); ++i)
      meet(g->key_types[i], n.keys[i], "key " + std::to_string(i + 1) + " of '" + g->name + "'");
    if (n.value && g->type != Type::Unknown)
      set_target(n.value, g->type == Type::Stats ? Type::Long : g->type);
  }

  // After the last sweep: names that never got a type.
  // A tapset global that no code uses is no error: loading a tapset file
  // for one of its globals brings the others along (this.stp's slots).
  void report_untyped(Program &p) {
    struct Used : ast::Visitor {
      std::set<const ast::GlobalDecl *> globals;
      void visit(ast::SymbolExpr &n) override {
        if (n.global)
          globals.insert(n.global);
      }
    } used;
    for (ast::ProbeDecl *pr : p.files.front()->probes)
      if (pr->body)
        pr->body->accept(used);
    for (ast::FunctionDecl *fn : p.functions)
      if (fn->body)
        fn->body->accept(used);
    const SourceFile *script = p.files.front()->source.get();
    for (ast::GlobalDecl *g : p.globals)
      if (g->type == Type::Unknown && (g->file == script || used.globals.count(g)))
        diag_.error(g->loc, "unresolved type for global '" + g->name + "'");
    for_each_local(p, [&](ast::VarDecl *v) {
      if (v->type == Type::Unknown)
        diag_.error(v->loc, "unresolved type for local '" + v->name + "'");
    });
    // A call of a function that returns nothing, used as a value
    // (`println(f())` of `function f() { print(1) }`): 4.8's "unresolved
    // type". As a statement of its own it is fine.
    struct VoidValues : ast::Visitor {
      Diagnostics &diag;
      explicit VoidValues(Diagnostics &d) : diag(d) {}
      void visit(ast::ExprStmt &n) override {
        if (auto *call = dynamic_cast<ast::CallExpr *>(n.expr)) {
          for (ast::Expr *a : call->args)
            visit_expr(a);
          return;
        }
        Visitor::visit(n);
      }
      void visit(ast::CallExpr &n) override {
        Visitor::visit(n);
        if (n.callee && n.type == Type::Unknown)
          diag.error(n.loc, "unresolved type: '" + n.name + "' returns no value");
      }
    } void_values(diag_);
    for (ast::ProbeDecl *pr : p.files.front()->probes)
      if (pr->body)
        pr->body->accept(void_values);
    for (ast::FunctionDecl *fn : p.functions)
      if (fn->body && fn->file == p.files.front()->source.get())
        fn->body->accept(void_values);
  }

private:
  void set(ast::Expr &n, Type t) {
    if (n.type == Type::Unknown && t != Type::Unknown) {
      n.type = t;
      changed_ = true;
    }
  }
  void learn(ast::Expr &n, Type t) { set(n, t); }
  void learn_slot(Type &slot, Type t, ast::Node &where) {
    if (t == Type::Unknown)
      return;
    if (slot == Type::Unknown) {
      slot = t;
      changed_ = true;
    }
    (void)where;
  }
  // A variable slot and an expression must agree.
  void meet(Type &slot, ast::Expr *e, const std::string &what) {
    if (!e)
      return;
    if (slot == Type::Unknown && e->type != Type::Unknown) {
      slot = e->type;
      changed_ = true;
    } else if (e->type == Type::Unknown && slot != Type::Unknown) {
      push_down(e, slot);
    } else if (slot != e->type) {
      mismatch(*e, what, slot, e->type);
    }
  }
  void meet(Type &slot, ast::SymbolExpr *e, const std::string &what) {
    meet(slot, static_cast<ast::Expr *>(e), what);
  }
  void want(ast::Expr *e, Type t, const std::string &what) {
    if (!e)
      return;
    if (e->type == Type::Unknown)
      push_down(e, t);
    else if (e->type != t)
      mismatch(*e, what, t, e->type);
  }
  void unify(ast::Expr *a, ast::Expr *b, const std::string &what) {
    if (a->type == Type::Unknown)
      push_down(a, b->type);
    else if (b->type == Type::Unknown)
      push_down(b, a->type);
    else if (a->type != b->type)
      mismatch(*b, what, a->type, b->type);
  }
  // An expression whose type is now known from its context: variables,
  // array elements and calls pass it on to their declarations.
  void push_down(ast::Expr *e, Type t) {
    if (!e || t == Type::Unknown || e->type != Type::Unknown)
      return;
    if (auto *s = dynamic_cast<ast::SymbolExpr *>(e)) {
      Type *slot = s->local ? &s->local->type : s->global ? &s->global->type : nullptr;
      if (slot && *slot == Type::Unknown) {
        *slot = t;
        changed_ = true;
      }
    } else if (auto *ix = dynamic_cast<ast::IndexExpr *>(e)) {
      auto *sym = dynamic_cast<ast::SymbolExpr *>(ix->base);
      if (sym && sym->global && sym->global->type == Type::Unknown) {
        sym->global->type = t;
        changed_ = true;
      }
    } else if (auto *c = dynamic_cast<ast::CallExpr *>(e)) {
      for (ast::FunctionDecl *fn : c->overloads)
        if (fn->return_type == Type::Unknown) {
          fn->return_type = t;
          changed_ = true;
        }
    }
  }
  void set_target(ast::Expr *target, Type t) {
    push_down(target, t);
    if (target && target->type == Type::Unknown)
      set(*target, t);
    else if (target && target->type != t && !(t == Type::Long && target->type == Type::Stats))
      mismatch(*target, "target", t, target->type);
  }
  void mismatch(ast::Node &n, const std::string &what, Type want, Type got) {
    diag_once(n, "type mismatch for " + what + ": expected " + ast::type_name(want) + ", found " +
                     ast::type_name(got));
  }
  // Sweeps revisit every node: report each problem once, in the last sweep.
  void diag_once(ast::Node &n, const std::string &msg) {
    if (final_ && reported_.insert(&n).second)
      diag_.error(n.loc, msg);
  }
  // The right side of =~ / !~ is a literal ERE, compiled here to report
  // its errors in pass 2.
  void check_regex(ast::BinaryExpr &n) {
    auto *re = dynamic_cast<ast::StringLit *>(n.right);
    if (!re) {
      diag_once(*n.right, "the regular expression of '" + ast::spelling(n.op) + "' must be a string literal");
      return;
    }
    std::string err;
    if (!lang::compile_regex(re->value, err))
      diag_once(*re, "invalid regular expression \"" + re->value + "\": " + err);
  }
  void check_format(ast::CallExpr &n) {
    auto *fmt = dynamic_cast<ast::StringLit *>(n.args[0]);
    if (!fmt) {
      diag_once(*n.args[0], "the format of '" + n.name + "' must be a string literal");
      return;
    }
    std::string err;
    auto parsed = lang::parse_format(fmt->value, err);
    if (!parsed) {
      diag_once(*fmt, err);
      return;
    }
    size_t given = n.args.size() - 1;
    if (given != parsed->arg_types.size()) {
      diag_once(n, "format expects " + std::to_string(parsed->arg_types.size()) +
                       " argument(s), " + std::to_string(given) + " given");
      return;
    }
    for (size_t i = 0; i < given; ++i)
      want(n.args[i + 1], parsed->arg_types[i],
           "argument " + std::to_string(i + 1) + " of '" + n.name + "'");
  }

  Diagnostics &diag_;
  ast::FunctionDecl *fn_ = nullptr;
  bool changed_ = false, final_ = false;
  std::set<ast::Node *> reported_;
};

} // namespace

void infer_types(Program &program, Diagnostics &diag) {
  TypeInference ti(diag);
  // Each sweep can only learn types, never change one: this ends after at
  // most as many sweeps as there are typeable things.
  for (int round = 0; round < 1000 && ti.sweep(program, false); ++round) {
  }
  unsigned before = diag.errors();
  ti.sweep(program, true);
  if (diag.errors() == before)
    ti.report_untyped(program);
}

} // namespace stap
