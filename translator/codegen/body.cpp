#include "codegen/body.h"

#include "ast/visitor.h"
#include "codegen/format.h"
#include "codegen/names.h"
#include "codegen/regex_c.h"
#include "codegen/target_access.h"
#include "lang/builtins.h"
#include "lang/overloads.h"
#include "passes/target_writes.h"

#include <climits>
#include <functional>
#include <map>
#include <optional>

#include <regex>

namespace stap::codegen {
namespace {

// Does evaluating `e` change anything (assignments, ++/--, calls)?
bool has_side_effects(ast::Expr *e) {
  struct Finder : ast::Visitor {
    bool found = false;
    void visit(ast::AssignExpr &) override { found = true; }
    void visit(ast::IncDecExpr &) override { found = true; }
    void visit(ast::CallExpr &) override { found = true; }
  } f;
  if (e)
    e->accept(f);
  return f.found;
}

// Translates one body. Expressions become C expression strings (string
// values: a `char *` to a MAXSTRINGLEN buffer or a literal); statements are
// emitted as lines into `out_`. Locals and temporaries become fields of the
// frame struct, collected in `fields_`.
class BodyWriter : public ast::Visitor {
public:
  BodyWriter(Diagnostics &diag, ast::FunctionDecl *fn,
             const debuginfo::TargetScope *scope = nullptr)
      : diag_(diag), fn_(fn), scope_(scope) {}

  Emitter out_;
  std::vector<std::string> fields_;
  // What the probe prologue does to each field before the body runs: the
  // script's locals start as 0 and "" (the first byte is enough for a
  // string), aggregates zeroed; temporaries the body fills before every use
  // (key structs) get nothing. Zeroing the whole frame instead cost a
  // kilobyte of stores per hit with two string temporaries (bench/run).
  std::vector<std::string> inits_;
  void init_field(ast::Type t, const std::string &name) {
    if (t == ast::Type::String)
      inits_.push_back("l->" + name + "[0] = '\\0';");
    else if (t == ast::Type::Stats)
      inits_.push_back("memset(&l->" + name + ", 0, sizeof(l->" + name + "));");
    else
      inits_.push_back("l->" + name + " = 0;");
  }

  void declare_locals(const std::vector<ast::VarDecl *> &vars) {
    for (ast::VarDecl *v : vars) {
      fields_.push_back(c_declare(v->type, "v_" + v->name));
      init_field(v->type, "v_" + v->name);
    }
  }

  std::string expr(ast::Expr *e) {
    std::string saved = std::move(result_);
    result_.clear();
    e->accept(*this);
    std::string r = std::move(result_);
    result_ = std::move(saved);
    return r;
  }

  // ---- statements
  void visit(ast::BlockStmt &n) override {
    for (ast::Stmt *s : n.stmts)
      s->accept(*this);
  }
  void visit(ast::NullStmt &) override {}
  void visit(ast::ExprStmt &n) override {
    begin_stmt(n);
    out_.line("(void)" + expr(n.expr) + ";");
    end_stmt();
  }
  void visit(ast::IfStmt &n) override {
    begin_stmt(n);
    std::string cond = expr(n.cond);
    out_.line("if (unlikely(c->last_error)) goto " + error_label_ + ";");
    out_.open("if (" + cond + ")");
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
    out_.open("while (" + count(n.loc) + " && (" + expr(n.cond) + ") && !c->last_error)");
    n.body->accept(*this);
    out_.close();
    end_stmt();
  }
  void visit(ast::ForStmt &n) override {
    begin_stmt(n);
    std::string init = n.init ? "(void)" + expr(n.init) : "";
    std::string cond = count(n.loc) + (n.cond ? " && (" + expr(n.cond) + ")" : "") +
                       " && !c->last_error";
    std::string step = n.step ? "(void)" + expr(n.step) : "";
    out_.open("for (" + init + "; " + cond + "; " + step + ")");
    n.body->accept(*this);
    out_.close();
    end_stmt();
  }
  void visit(ast::BreakStmt &n) override { begin_stmt(n); out_.line("break;"); }
  void visit(ast::ContinueStmt &n) override { begin_stmt(n); out_.line("continue;"); }
  // `next` ends a probe handler; in a function it hands the call to the
  // next overload (see overloaded_call).
  void visit(ast::NextStmt &n) override {
    begin_stmt(n);
    if (fn_)
      out_.line("c->next_overload = 1;");
    out_.line("goto out;");
  }
  void visit(ast::ReturnStmt &n) override {
    begin_stmt(n);
    if (!fn_) {
      unsupported(n, "'return' outside a function");
      return;
    }
    if (n.value) {
      std::string v = expr(n.value);
      if (n.value->type == ast::Type::String)
        out_.line("stp_strcpy(ret, " + v + ");");
      else
        out_.line("ret = " + v + ";");
      // An error computing the value goes to an enclosing try's catch
      // block, as any statement's would (`try { return f(x) } catch {...}`).
      if (error_label_ != "out")
        out_.line("if (unlikely(c->last_error)) goto " + error_label_ + ";");
    }
    out_.line("goto out;");
  }

  // ---- expressions
  void visit(ast::NumberLit &n) override {
    result_ = n.value == INT64_MIN ? "((s64)(-9223372036854775807LL - 1))"
                                   : "((s64)" + std::to_string(n.value) + "LL)";
  }
  void visit(ast::StringLit &n) override { result_ = c_string_literal(n.value); }
  void visit(ast::SymbolExpr &n) override {
    if (n.local)
      result_ = local_name(*n.local);
    else if (n.global)
      result_ = global_name(*n.global);
    else
      unsupported(n, "unresolved variable '" + n.name + "'");
  }
  void visit(ast::UnaryExpr &n) override {
    result_ = "((s64)(" + ast::spelling(n.op) + "(" + expr(n.operand) + ")))";
  }
  void visit(ast::IncDecExpr &n) override {
    if (written_target(n.operand)) {
      // Guru mode's `$x->count++`: read, store the new value, yield the
      // old (postfix) or new (prefix) one.
      std::string store = target_store_c(scope_, *n.operand, "_r", target_hooks(), diag_);
      result_ = "({ s64 _o = " + expr(n.operand) + "; s64 _r = (s64)((u64)_o " +
                (n.op == ast::IncDecOp::Inc ? "+" : "-") + " 1); if (!c->last_error) { " + store + " } " +
                (n.prefix ? "_r" : "_o") + "; })";
      return;
    }
    auto t = lvalue(n.operand);
    if (!t)
      return;
    std::string op = ast::spelling(n.op);
    result_ = "({ " + t->prelude + (n.prefix ? op + t->lv : t->lv + op) + "; })";
  }
  void visit(ast::BinaryExpr &n) override {
    // C's && and || already run left to right, and the right side only
    // when needed: binding both first would run it always.
    if (n.op == ast::BinaryOp::LogAnd || n.op == ast::BinaryOp::LogOr) {
      result_ = "((s64)((" + expr(n.left) + ") " + ast::spelling(n.op) + " (" + expr(n.right) +
                ")))";
      return;
    }
    result_ = sequenced({n.left, n.right}, [&](const std::vector<std::string> &v) {
      binary(n, v[0], v[1]);
      return result_;
    });
  }
  void binary(ast::BinaryExpr &n, const std::string &l, const std::string &r) {
    using enum ast::BinaryOp;
    const std::string op = ast::spelling(n.op); // the C operator, where C has it
    if (n.op == Div || n.op == Mod) {
      // Division by zero is a run-time error, never a kernel trap.
      result_ = std::string(n.op == Div ? "stp_div" : "stp_mod") + "(c, " + l + ", " + r +
                ", " + c_string_literal(loc_string(n.loc)) + ")";
    } else if (n.op == Concat) {
      result_ = "stp_concat(" + temp(ast::Type::String) + ", " + l + ", " + r + ")";
    } else if (n.op == Match || n.op == NoMatch) {
      regex_match(n, l);
    } else if (n.left->type == ast::Type::String) {
      result_ = "((s64)(strcmp(" + l + ", " + r + ") " + op + " 0))";
    } else if (n.op == ShrLogical) {
      result_ = "((s64)((u64)(" + l + ") >> ((" + r + ") & 63)))";
    } else if (n.op == Shl || n.op == Shr) {
      result_ = "((s64)((" + l + ") " + op + " ((" + r + ") & 63)))";
    } else if (n.op == Add || n.op == Sub || n.op == Mul) {
      // Wrap around as two's complement, never undefined overflow.
      result_ = "((s64)((u64)(" + l + ") " + op + " (u64)(" + r + ")))";
    } else {
      result_ = "((s64)((" + l + ") " + op + " (" + r + ")))";
    }
  }
  // The new value of a compound assignment `old OP= _v`, computed as the
  // binary operator computes it (wrapping, shifts mod 64, checked
  // division); `_v` itself for `=`.
  static std::string compound_c(ast::AssignOp op, const std::string &old, const std::string &loc) {
    auto b = ast::compound_binary(op);
    if (!b)
      return "_v";
    using enum ast::BinaryOp;
    switch (*b) {
    case Div:
    case Mod:
      return std::string(*b == Div ? "stp_div" : "stp_mod") + "(c, " + old + ", _v, " + loc + ")";
    case Add:
    case Sub:
    case Mul:
      return "(s64)((u64)" + old + " " + ast::spelling(*b) + " (u64)_v)";
    case Shl:
    case Shr:
      return "(" + old + " " + ast::spelling(*b) + " (_v & 63))";
    default:
      return "(" + old + " " + ast::spelling(*b) + " _v)";
    }
  }
  // The ERE was checked in pass 2; its program becomes static tables and
  // the matcher's workspace a field of the frame.
  void regex_match(ast::BinaryExpr &n, const std::string &subject) {
    std::string err;
    auto prog = lang::compile_regex(static_cast<ast::StringLit *>(n.right)->value, err);
    if (!prog) {
      unsupported(n, "this regular expression");
      return;
    }
    std::string ws = temp_c("struct { int w[" + std::to_string(prog->workspace_ints()) + "]; }");
    inits_.push_back("memset(&" + ws + ", 0, sizeof(" + ws + "));");
    result_ = "((s64)(stp_regex_match(c, " + regex_program_c(*prog) + ", " + subject + ", " + ws +
              ".w) " + (n.op == ast::BinaryOp::Match ? "!= 0" : "== 0") + "))";
  }
  void visit(ast::TernaryExpr &n) override {
    result_ = "((" + expr(n.cond) + ") ? (" + expr(n.then_expr) + ") : (" +
              expr(n.else_expr) + "))";
  }
  void visit(ast::AssignExpr &n) override {
    if (n.op == ast::AssignOp::Aggregate) {
      aggregate(n);
      return;
    }
    if (written_target(n.target)) {
      target_assign(n);
      return;
    }
    auto place = lvalue(n.target);
    if (!place)
      return;
    const std::string &t = place->lv, &pre = place->prelude;
    std::string v = expr(n.value);
    std::string loc = c_string_literal(loc_string(n.loc));
    // The value is computed first; an error while computing it leaves the
    // target as it was.
    if (n.target->type == ast::Type::String) {
      std::string set = n.op == ast::AssignOp::Concat ? "stp_strcat" : "stp_strcpy";
      result_ = "({ " + pre + "const char *_v = " + v + "; if (!c->last_error) " + set + "(" +
                t + ", _v); " + t + "; })";
      return;
    }
    std::string compute = compound_c(n.op, t, loc);
    result_ = "({ " + pre + "s64 _v = " + v + "; s64 _r = " + compute +
              "; if (!c->last_error) " + t + " = _r; " + t + "; })";
  }
  // Guru mode's `$var->field OP= v` (passes/target_writes.cpp allowed it):
  // the value first, then the old value for compound operators, then the
  // store; an error on the way leaves the target as it was.
  void target_assign(ast::AssignExpr &n) {
    std::string v = expr(n.value);
    std::string loc = c_string_literal(loc_string(n.loc));
    std::string old = n.op == ast::AssignOp::Assign ? "" : expr(n.target);
    std::string compute = compound_c(n.op, "_o", loc);
    std::string store = target_store_c(scope_, *n.target, "_r", target_hooks(), diag_);
    result_ = "({ s64 _v = " + v + "; " + (old.empty() ? "" : "s64 _o = " + old + "; ") +
              "s64 _r = " + compute + "; if (!c->last_error) { " + store + " } _r; })";
  }
  void visit(ast::CallExpr &n) override {
    if (n.callee && (n.overloads.size() > 1 || lang::may_next(*n.callee))) {
      overloaded_call(n);
      return;
    }
    if (n.callee) {
      std::string ret = n.callee->return_type == ast::Type::String ? ", " + temp(ast::Type::String) : "";
      result_ = sequenced(n.args, [&](const std::vector<std::string> &v) {
        std::string call = function_name(*n.callee) + "(c" + ret;
        for (const auto &a : v)
          call += ", " + a;
        return call + ")";
      });
      if (n.callee->return_type == ast::Type::Unknown)
        result_ = "((void)" + result_ + ", (s64)0)";
      return;
    }
    if (n.name == "exit") {
      result_ = "(stp_exit(c), (s64)0)";
    } else if (n.name == "printf" || n.name == "sprintf") {
      std::string err;
      auto parsed = lang::parse_format(static_cast<ast::StringLit *>(n.args[0])->value, err);
      std::vector<ast::Expr *> args(n.args.begin() + 1, n.args.end());
      std::string buf = n.name == "sprintf" ? temp(ast::Type::String) : "";
      result_ = sequenced(args, [&](const std::vector<std::string> &v) {
        return format_call(*parsed, v, buf);
      });
    } else if (lang::is_delimited_print(n.name)) {
      // printd(delim, a, b...): the delimiter is a literal, so the whole
      // thing is one format.
      std::string delim;
      for (char ch : static_cast<ast::StringLit *>(n.args[0])->value)
        delim += ch == '%' ? std::string("%%") : std::string(1, ch);
      std::vector<ast::Expr *> args(n.args.begin() + 1, n.args.end());
      std::string fmt;
      for (size_t i = 0; i < args.size(); ++i)
        fmt += (i ? delim : "") + (args[i]->type == ast::Type::String ? "%s" : "%d");
      if (n.name.back() == 'n')
        fmt += "\n";
      std::string err;
      auto parsed = lang::parse_format(fmt, err);
      std::string buf = n.name[0] == 's' ? temp(ast::Type::String) : "";
      result_ = sequenced(args, [&](const std::vector<std::string> &v) {
        return format_call(*parsed, v, buf);
      });
    } else if ((n.name == "sprint" || n.name == "sprintln") && n.args.size() == 1 &&
               dynamic_cast<ast::HistExpr *>(n.args[0])) {
      result_ = print_hist(n, *static_cast<ast::HistExpr *>(n.args[0]), temp(ast::Type::String));
    } else if (n.name == "sprint" || n.name == "sprintln") {
      std::string fmt;
      for (ast::Expr *a : n.args)
        fmt += a->type == ast::Type::String ? "%s" : "%lld";
      if (n.name == "sprintln")
        fmt += "\n";
      std::string buf = temp(ast::Type::String);
      result_ = sequenced(n.args, [&](const std::vector<std::string> &v) {
        std::string args;
        for (size_t i = 0; i < v.size(); ++i)
          args += ", " + std::string(n.args[i]->type == ast::Type::String ? "" : "(long long)") + v[i];
        return "stp_sprintf(" + buf + ", " + c_string_literal(fmt) + args + ")";
      });
    } else if ((n.name == "print" || n.name == "println") && n.args.size() == 1 &&
               dynamic_cast<ast::HistExpr *>(n.args[0])) {
      result_ = print_hist(n, *static_cast<ast::HistExpr *>(n.args[0]));
    } else if (n.name == "print" || n.name == "println") {
      std::string fmt;
      for (ast::Expr *a : n.args)
        fmt += a->type == ast::Type::String ? "%s" : "%lld";
      if (n.name == "println")
        fmt += "\n";
      result_ = sequenced(n.args, [&](const std::vector<std::string> &v) {
        std::string args;
        for (size_t i = 0; i < v.size(); ++i)
          args += ", " + std::string(n.args[i]->type == ast::Type::String ? "" : "(long long)") + v[i];
        return "(stp_printf(c, " + c_string_literal(fmt) + args + "), (s64)0)";
      });
    } else {
      unsupported(n, "call of '" + n.name + "'");
    }
  }

  // A call of overloads, in priority order: each runs while the one before
  // it said `next` (c->next_overload) without an error. The arguments are
  // evaluated once. A `next` from the last one is a run-time error.
  void overloaded_call(ast::CallExpr &n) {
    bool str = n.callee->return_type == ast::Type::String;
    std::string ret = str ? ", " + temp(ast::Type::String) : "";
    std::string code = "({ ", args;
    for (size_t i = 0; i < n.args.size(); ++i) {
      std::string a = "_a" + std::to_string(seq_++);
      code += std::string(n.args[i]->type == ast::Type::String ? "const char *" : "s64 ") + a +
              " = " + expr(n.args[i]) + "; ";
      args += ", " + a;
    }
    code += std::string(str ? "const char *" : "s64 ") + "_o; ";
    for (size_t i = 0; i < n.overloads.size(); ++i) {
      std::string call = "_o = " + function_name(*n.overloads[i]) + "(c" + ret + args + "); ";
      code += i == 0 ? call
                     : "if (c->next_overload && !c->last_error) { c->next_overload = 0; " + call +
                           "} ";
    }
    std::string exhausted =
        lang::may_next(*n.overloads.back())
            ? " if (!c->last_error) { stp_error(c, \"all functions exhausted\"); c->error_loc = " +
                  c_string_literal(loc_string(n.loc)) + "; }"
            : "";
    code += "if (unlikely(c->next_overload)) { c->next_overload = 0;" + exhausted + " } ";
    result_ = code + "_o; })";
    if (n.callee->return_type == ast::Type::Unknown)
      result_ = "((void)" + result_ + ", (s64)0)";
  }

  // Everything not translated yet is reported, never miscompiled.
  void visit(ast::IndexExpr &n) override {
    if (auto *h = dynamic_cast<ast::HistExpr *>(n.base)) {
      Merged m = merged(h->stat);
      if (!m.ok || n.indexes.size() != 1 || !n.indexes[0]) {
        unsupported(n, "this histogram bucket");
        return;
      }
      result_ = "({ " + m.code + "s64 _b = " + expr(n.indexes[0]) + "; stp_stat_bucket(c, &" +
                m.desc + ", _h, _b, " + c_string_literal(loc_string(n.loc)) + "); })";
      return;
    }
    ast::GlobalDecl *g = array_of(n.base);
    if (!g) {
      unsupported(n, "indexing this kind of expression");
      return;
    }
    KeyFill k = fill_key(*g, n.indexes);
    if (k.wild) {
      unsupported(n, "'*' in an array element that is read");
      return;
    }
    std::string lookup = "stp_map_lookup(&" + global_name(*g) + ", " + k.key + ")";
    result_ = g->type == ast::Type::String
                  ? "({ " + k.code + "const char *_p = " + lookup + "; _p ? _p : \"\"; })"
                  : "({ " + k.code + "const s64 *_p = " + lookup + "; _p ? *_p : (s64)0; })";
  }
  void visit(ast::InExpr &n) override {
    ast::GlobalDecl *g = array_of(n.array);
    if (!g) {
      unsupported(n, "'in' on this kind of expression");
      return;
    }
    KeyFill k = fill_key(*g, n.keys);
    std::string test = k.wild ? "stp_map_exists_matching(&" + global_name(*g) + ", " + k.key +
                                    ", " + std::to_string(k.wild) + "u)"
                              : "stp_map_lookup(&" + global_name(*g) + ", " + k.key + ") != NULL";
    result_ = "({ " + k.code + "(s64)(" + test + "); })";
  }
  void visit(ast::DeleteStmt &n) override {
    begin_stmt(n);
    if (ast::GlobalDecl *g = array_of(n.target)) {
      out_.line("stp_map_clear(&" + global_name(*g) + ");");
    } else if (auto *ix = dynamic_cast<ast::IndexExpr *>(n.target); ix && array_of(ix->base)) {
      ast::GlobalDecl *a = array_of(ix->base);
      KeyFill k = fill_key(*a, ix->indexes);
      out_.line(k.code);
      if (k.wild)
        out_.line("stp_map_delete_matching(&" + global_name(*a) + ", " + k.key + ", " +
                  std::to_string(k.wild) + "u);");
      else
        out_.line("stp_map_delete(&" + global_name(*a) + ", " + k.key + ");");
    } else if (auto *sym = dynamic_cast<ast::SymbolExpr *>(n.target)) {
      std::string v = expr(sym);
      out_.line(sym->type == ast::Type::String  ? v + "[0] = '\\0';"
                : sym->type == ast::Type::Stats ? "stp_stat_var_clear(&" + v + ");"
                                                : v + " = 0;");
    } else {
      unsupported(n, "delete of this kind of expression");
    }
    end_stmt();
  }
  void visit(ast::ForeachStmt &n) override {
    if (auto *h = dynamic_cast<ast::HistExpr *>(n.array)) {
      foreach_bucket(n, *h);
      return;
    }
    ast::GlobalDecl *g = array_of(n.array);
    if (!g) {
      unsupported(n, "foreach over this kind of expression");
      return;
    }
    begin_stmt(n);
    std::string id = std::to_string(seq_++);
    std::string count = "_n" + id, ents = "_e" + id, i = "_i" + id, m = "&" + global_name(*g);
    std::string limit = n.limit ? expr(n.limit) : "-1";
    out_.open("");
    KeyFill slice;
    if (!n.slice.empty()) {
      slice = fill_key(*g, n.slice);
      out_.line(slice.code);
    }
    // Statistics sort by an extractor, @count by default.
    std::string by = g->type == ast::Type::Stats ? std::string(", '") + stat_letter(n.sort_aggr.value_or(ast::StatOp::Count)) + "'" : "";
    if (by.empty())
      out_.line("unsigned " + count + " = stp_map_sort(" + m + ", " +
                std::to_string(n.sort_column) + ", " + std::to_string(n.sort_dir) + ", " + limit +
                ");");
    else
      out_.line("unsigned " + count + " = stp_map_sort_by(c, " + m + ", " +
                std::to_string(n.sort_column) + ", " + std::to_string(n.sort_dir) + ", " + limit +
                by + ", " + c_string_literal(g->name) + ");");
    out_.line("struct stp_map_entry **" + ents + " = stp_map_sorted(" + m + ");");
    out_.open("for (unsigned " + i + " = 0; " + i + " < " + count + " && !c->last_error; " + i +
              "++)");
    std::string e = ents + "[" + i + "]";
    if (!n.slice.empty())
      out_.line("if (!stp_map_matches(" + m + ", " + e + ", " + slice.key + ", " +
                std::to_string(slice.wild) + "u)) continue;");
    out_.line("const " + global_key_struct(*g) + " *_k = stp_map_entry_key(" + e + ");");
    auto assign = [&](ast::SymbolExpr *var, ast::Type t, const std::string &from) {
      std::string to = expr(var);
      out_.line(t == ast::Type::String ? "stp_strcpy(" + to + ", " + from + ");"
                                       : to + " = " + from + ";");
    };
    for (size_t k = 0; k < n.keys.size(); ++k)
      assign(n.keys[k], g->key_types[k], "_k->k" + std::to_string(k));
    if (n.value)
      assign(n.value, g->type,
             g->type == ast::Type::String
                 ? "(const char *)stp_map_entry_value(" + m + ", " + e + ")"
                 : "*(const s64 *)stp_map_entry_value(" + m + ", " + e + ")");
    n.body->accept(*this);
    out_.close();
    out_.close();
    end_stmt();
  }
  void visit(ast::TargetExpr &n) override {
    // --skip-badvars: not resolvable at this point (passes/target_vars.cpp).
    if (std::find(n.substituted_at.begin(), n.substituted_at.end(), scope_) !=
        n.substituted_at.end()) {
      result_ = "((s64)0)";
      return;
    }
    if (scope_ && scope_->types) {
      result_ = target_expr_c(*scope_, n, target_hooks(), diag_);
      return;
    }
    // Without debuginfo pass 2 (passes/target_vars.cpp) typed only $return,
    // where it is valid: the return register, as a long.
    if (!n.c_expr.empty())
      result_ = n.c_expr; // the family's reading (passes/target_vars.cpp)
    else if (n.name == "$return" && n.type == ast::Type::Long)
      result_ = "((s64)(long)regs_return_value(c->regs))";
    else
      unsupported(n, "target variable " + n.name);
  }
  void visit(ast::CastExpr &n) override {
    result_ = cast_expr_c(n, target_hooks(), diag_);
  }
  void visit(ast::AutocastExpr &n) override {
    result_ = autocast_expr_c(n, target_hooks(), diag_);
  }
  void visit(ast::AtOpExpr &n) override {
    // passes/entry_values.cpp made @entry's argument the value saved at entry.
    if (n.name == "entry" && n.args.size() == 1)
      result_ = expr(n.args[0]);
    // passes/check_fetches.cpp checked these; runtime/stp_fetch.h reads.
    else if ((n.name == "kregister" || n.name == "uregister") && n.args.size() == 1)
      result_ = "stp_dwarf_register(c, " + expr(n.args[0]) + ", " +
                (n.name == "uregister" ? "true" : "false") + ")";
    // passes/perf_counters.cpp bound it; runtime/probes/perf_task.c reads.
    else if (n.name == "perf" && n.slot >= 0)
      result_ = "stp_perf_task_read(" + std::to_string(n.slot) + ")";
    else if ((n.name == "kderef" || n.name == "uderef") && n.args.size() == 2)
      result_ = "stp_deref(c, " + expr(n.args[0]) + ", " + expr(n.args[1]) + ", " +
                (n.name == "uderef" ? "true" : "false") + ")";
    else
      unsupported(n, "@" + n.name);
  }
  void visit(ast::StatExpr &n) override {
    std::string loc = c_string_literal(loc_string(n.loc));
    std::string extract =
        std::string("stp_stat_extract(c, _p, '") + stat_letter(n.op) + "', " + loc + ")";
    if (auto *s = dynamic_cast<ast::SymbolExpr *>(n.stat); s && s->global && !s->global->array) {
      result_ = "({ const struct stp_stat *_p = stp_stat_var_merge(&" + global_name(*s->global) +
                "); " + extract + "; })";
      return;
    }
    auto *ix = dynamic_cast<ast::IndexExpr *>(n.stat);
    ast::GlobalDecl *g = ix ? array_of(ix->base) : nullptr;
    if (!g) {
      unsupported(n, "@" + ast::spelling(n.op) + " of this kind of expression");
      return;
    }
    KeyFill k = fill_key(*g, ix->indexes);
    result_ = "({ " + k.code + "const struct stp_stat *_p = stp_map_lookup(&" + global_name(*g) +
              ", " + k.key + "); " + extract + "; })";
  }
  void visit(ast::HistExpr &n) override {
    unsupported(n, "a histogram outside print(), println(), [bucket] and foreach");
  }
  // `%{ C %}` in a guru-mode body: a C expression, as SystemTap 4.8 takes
  // it (a number, or a string with /* string */). CONTEXT is the probe
  // context here too.
  void visit(ast::EmbeddedExpr &n) override {
    static const std::regex context_word("\\bCONTEXT\\b");
    std::string code = std::regex_replace(n.code, context_word, "c");
    if (n.type == ast::Type::String) {
      std::string t = temp(ast::Type::String);
      result_ = "({ strscpy(" + t + ", (const char *)(" + code + "), MAXSTRINGLEN); " + t + "; })";
    } else {
      result_ = "((s64)(" + code + "))";
    }
  }
  // try { A } catch (msg) { B }: errors in A jump to the catch label, which
  // takes the message and clears the error. MAXACTION is not caught (the
  // handler has no actions left to run the catch block with), nor abort().
  void visit(ast::TryStmt &n) override {
    begin_stmt(n);
    std::string id = std::to_string(seq_++);
    std::string catch_label = "catch_" + id, end_label = "end_try_" + id;
    std::string outer = error_label_;
    out_.open("");
    error_label_ = catch_label;
    n.try_block->accept(*this);
    error_label_ = outer;
    out_.line("goto " + end_label + ";");
    out_.raw_line(catch_label + ": __attribute__((unused));");
    out_.line("if (c->actions > MAXACTION || c->aborted) goto out;");
    if (n.catch_var) {
      std::string var = expr(n.catch_var);
      out_.line("stp_strcpy(" + var + ", c->last_error);");
    }
    out_.line("c->last_error = NULL;");
    out_.line("c->error_loc = NULL;");
    n.catch_block->accept(*this);
    out_.raw_line(end_label + ": __attribute__((unused));");
    out_.line(";");
    out_.close();
    end_stmt();
  }
  void visit(ast::EmbeddedStmt &n) override { unsupported(n, "embedded C"); }

private:
  // ---- statistics
  // The extractor letters of stp_stat_extract() (runtime/stat.h).
  static char stat_letter(ast::StatOp op) {
    switch (op) {
    case ast::StatOp::Count: return 'c';
    case ast::StatOp::Sum: return 's';
    case ast::StatOp::Min: return 'm';
    case ast::StatOp::Max: return 'M';
    case ast::StatOp::Avg: return 'a';
    case ast::StatOp::Variance: return 'v';
    }
    return 'c';
  }
  // `x <<< v` adds to this CPU's share of x (see runtime/stat.h).
  void aggregate(ast::AssignExpr &n) {
    if (auto *s = dynamic_cast<ast::SymbolExpr *>(n.target); s && s->global && !s->global->array) {
      result_ = "({ s64 _v = " + expr(n.value) + "; if (!c->last_error) stp_stat_var_add(&" +
                global_name(*s->global) + ", _v); _v; })";
      return;
    }
    auto *ix = dynamic_cast<ast::IndexExpr *>(n.target);
    ast::GlobalDecl *g = ix ? array_of(ix->base) : nullptr;
    if (!g) {
      unsupported(n, "'<<<' into this kind of expression");
      return;
    }
    KeyFill k = fill_key(*g, ix->indexes);
    if (k.wild) {
      unsupported(n, "'*' in an array element that is aggregated");
      return;
    }
    result_ = "({ " + k.code + "s64 _v = " + expr(n.value) +
              "; if (!c->last_error) { struct stp_stat *_p = stp_map_get(c, &" + global_name(*g) +
              ", " + k.key + "); if (_p) stp_stat_add(&" + stat_desc_name(*g) + ", _p, _v); } _v; })";
  }
  // The merged aggregate of a histogram's operand, `x` or `A[k]`: `code`
  // sets `const struct stp_stat *_h` (NULL for an absent element).
  struct Merged {
    bool ok = false;
    std::string code, desc;
  };
  Merged merged(ast::Expr *stat) {
    Merged m;
    if (auto *s = dynamic_cast<ast::SymbolExpr *>(stat); s && s->global && !s->global->array) {
      m.ok = true;
      m.desc = stat_desc_name(*s->global);
      m.code = "const struct stp_stat *_h = stp_stat_var_merge(&" + global_name(*s->global) + "); ";
      return m;
    }
    auto *ix = dynamic_cast<ast::IndexExpr *>(stat);
    ast::GlobalDecl *g = ix ? array_of(ix->base) : nullptr;
    if (!g)
      return m;
    KeyFill k = fill_key(*g, ix->indexes);
    if (k.wild)
      return m;
    m.ok = true;
    m.desc = stat_desc_name(*g);
    m.code = k.code + "const struct stp_stat *_h = stp_map_lookup(&" + global_name(*g) + ", " +
             k.key + "); ";
    return m;
  }
  // print() and println() of a histogram print the same chart (which ends
  // with an empty line), as SystemTap 4.8 does; an empty one is an error.
  // sprint() and sprintln() give the chart as a string (of at most
  // MAXSTRINGLEN - 1 bytes, as in 4.8): `buf` is then its temporary.
  std::string print_hist(ast::CallExpr &call, ast::HistExpr &h, const std::string &buf = "") {
    Merged m = merged(h.stat);
    if (!m.ok) {
      unsupported(h, "printing this histogram");
      return result_;
    }
    std::string error = "if (!_h || !_h->count) { c->error_loc = " +
                        c_string_literal(loc_string(call.loc)) +
                        "; stp_error(c, \"empty aggregate\"); } ";
    if (!buf.empty())
      return "({ " + m.code + buf + "[0] = '\\0'; " + error + "else stp_stat_print_hist(c, &" +
             m.desc + ", _h, " + buf + "); " + buf + "; })";
    return "({ " + m.code + error + "else stp_stat_print_hist(c, &" + m.desc +
           ", _h, NULL); (s64)0; })";
  }
  // foreach (b in @hist_*(x)): the bucket numbers, in order.
  void foreach_bucket(ast::ForeachStmt &n, ast::HistExpr &h) {
    Merged m = merged(h.stat);
    if (!m.ok || n.keys.size() != 1 || n.value || !n.slice.empty()) {
      unsupported(n, "this foreach over a histogram");
      return;
    }
    begin_stmt(n);
    std::string id = std::to_string(seq_++), i = "_i" + id, lim = "_l" + id;
    out_.open("");
    out_.line("s64 " + lim + " = " + (n.limit ? expr(n.limit) : "-1") + ";");
    out_.open("for (unsigned " + i + " = 0; " + i + " < " + m.desc + ".buckets && !c->last_error && (" +
              lim + " < 0 || " + i + " < " + lim + "); " + i + "++)");
    out_.line(expr(n.keys[0]) + " = " + i + ";");
    n.body->accept(*this);
    out_.close();
    out_.close();
    end_stmt();
  }

  std::string count(const SourceLoc &loc) {
    return "stp_count_action(c, " + c_string_literal(loc_string(loc)) + ")";
  }
  void begin_stmt(ast::Stmt &s) {
    out_.line_directive(s.loc);
    out_.line("if (!" + count(s.loc) + ") goto out;");
  }
  // A run-time error goes to the innermost catch, or ends the body.
  void end_stmt() { out_.line("if (unlikely(c->last_error)) goto " + error_label_ + ";"); }
  // C leaves the order of operand and argument evaluation open; the script
  // language evaluates left to right. When any operand has side effects
  // (a later one may see them, or change what an earlier one read), the
  // operands are bound to C locals in order first.
  std::string sequenced(const std::vector<ast::Expr *> &operands,
                        const std::function<std::string(const std::vector<std::string> &)> &build) {
    std::vector<std::string> values;
    bool needed = false;
    for (size_t i = 0; i < operands.size() && operands.size() > 1; ++i)
      needed |= has_side_effects(operands[i]);
    for (ast::Expr *e : operands)
      values.push_back(expr(e));
    if (!needed)
      return build(values);
    std::string r = "({ ";
    for (size_t i = 0; i < operands.size(); ++i) {
      std::string name = "_s" + std::to_string(seq_++);
      r += std::string(operands[i]->type == ast::Type::String ? "const char *" : "s64 ") + name +
           " = " + values[i] + "; ";
      values[i] = name;
    }
    return r + build(values) + "; })";
  }
  std::string temp(ast::Type t) {
    std::string name = "t_" + std::to_string(temps_++);
    fields_.push_back(c_declare(t, name));
    init_field(t, name);
    return "l->" + name;
  }
  // An assignable place: `prelude` (C statements, for statement
  // expressions) makes `lv` valid. Array elements are created on the spot.
  struct LValue {
    std::string prelude, lv;
  };
  std::optional<LValue> lvalue(ast::Expr *e) {
    if (auto *s = dynamic_cast<ast::SymbolExpr *>(e))
      return LValue{"", expr(s)};
    auto *ix = dynamic_cast<ast::IndexExpr *>(e);
    ast::GlobalDecl *g = ix ? array_of(ix->base) : nullptr;
    if (!g) {
      unsupported(*e, "assignment to this kind of expression");
      return std::nullopt;
    }
    KeyFill k = fill_key(*g, ix->indexes);
    if (k.wild) {
      unsupported(*e, "'*' in an array element that is assigned");
      return std::nullopt;
    }
    bool str = g->type == ast::Type::String, stat = g->type == ast::Type::Stats;
    std::string p = "_p" + std::to_string(seq_++);
    // When the array is full the error is set and the statement ends; the
    // value goes to a scratch temporary meanwhile.
    std::string prelude = k.code + (str ? "char *" : stat ? "struct stp_stat *" : "s64 *") + p +
                          " = stp_map_get(c, &" + global_name(*g) + ", " + k.key + "); if (!" +
                          p + ") " + p + " = " + (str ? "" : "&") + temp(g->type) + "; ";
    // Strings and statistics are used through the pointer itself.
    return LValue{prelude, str || stat ? p : "(*" + p + ")"};
  }

  // ---- arrays
  ast::GlobalDecl *array_of(ast::Expr *base) {
    auto *s = dynamic_cast<ast::SymbolExpr *>(base);
    return s && s->global && s->global->array ? s->global : nullptr;
  }
  struct KeyFill {
    std::string code; // fills the key struct
    std::string key;  // pointer to it
    unsigned wild = 0; // a bit per `*` key
  };
  // The keys are evaluated left to right into a key struct in the frame.
  KeyFill fill_key(ast::GlobalDecl &g, const std::vector<ast::Expr *> &indexes) {
    KeyFill k;
    std::string kt = temp_c(global_key_struct(g));
    // Every key is written, string keys only up to their NUL: the runtime
    // compares and hashes string keys as strings (runtime/map.c), so the
    // rest of a key's MAXSTRINGLEN bytes need no padding. `*` keys are
    // never compared; they are zeroed all the same.
    for (size_t i = 0; i < indexes.size(); ++i) {
      std::string field = kt + ".k" + std::to_string(i);
      if (!indexes[i]) {
        k.wild |= 1u << i;
        continue;
      }
      std::string v = expr(indexes[i]);
      if (indexes[i]->type == ast::Type::String)
        k.code += "stp_strcpy(" + field + ", " + v + "); ";
      else
        k.code += field + " = " + v + "; ";
    }
    if (k.wild)
      k.code = "memset(&" + kt + ", 0, sizeof(" + kt + ")); " + k.code;
    k.key = "&" + kt;
    return k;
  }
  std::string temp_c(const std::string &ctype) {
    std::string name = "t_" + std::to_string(temps_++);
    fields_.push_back(ctype + " " + name);
    return "l->" + name;
  }
  TargetAccessHooks target_hooks() {
    return {[this](ast::Expr *e) { return expr(e); }, [this] { return temp(ast::Type::String); }};
  }
  void unsupported(ast::Node &n, const std::string &what) {
    diag_.error(n.loc, what + " is not supported by the translator yet");
    result_ = "((s64)0)";
  }

  Diagnostics &diag_;
  ast::FunctionDecl *fn_;
  const debuginfo::TargetScope *scope_;
  std::string result_;
  std::string error_label_ = "out";
  int temps_ = 0, seq_ = 0;
};

void emit_frame_struct(Emitter &out, const std::string &name,
                       const std::vector<std::string> &fields) {
  out.open("struct " + frame_struct(name));
  for (const auto &f : fields)
    out.line(f + ";");
  if (fields.empty())
    out.line("char unused;");
  out.close(";");
}

void append_body(Emitter &out, const Emitter &body) {
  // The body was emitted at indentation 0: indent it one level here.
  const std::string &text = body.str();
  size_t start = 0;
  while (start < text.size()) {
    size_t nl = text.find('\n', start);
    std::string line = text.substr(start, nl - start);
    if (line.rfind("#line", 0) == 0)
      out.raw_line(line);
    else
      out.line(line);
    start = nl + 1;
  }
}

// An embedded-C function body (tapsets, guru mode) sees its arguments as
// STAP_ARG_name, its result as STAP_RETVALUE, and returns with
// STAP_RETURN(v); CONTEXT is the probe context.
void emit_embedded_body(Emitter &out, const ast::FunctionDecl &fn, const std::string &code) {
  bool str = fn.return_type == ast::Type::String;
  out.raw_line("#define CONTEXT c");
  for (const ast::VarDecl *p : fn.params)
    out.raw_line("#define STAP_ARG_" + p->name + " (" + local_name(*p) + ")");
  out.raw_line("#define STAP_RETVALUE ret");
  out.raw_line("#define STAP_NEXT do { c->next_overload = 1; goto out; } while (0)");
  // stp_strcpy: ret has MAXSTRINGLEN bytes, and (as 4.8's strlcpy() does)
  // the value is taken to be NUL-terminated; the copy stops at
  // MAXSTRINGLEN whatever it is.
  out.raw_line(str ? "#define STAP_RETURN(v) do { stp_strcpy(ret, (v)); goto out; } while (0)"
                   : "#define STAP_RETURN(v) do { ret = (v); goto out; } while (0)");
  out.line_directive(fn.body->loc);
  out.open("");
  append_body(out, [&] {
    Emitter e;
    e.raw_line(code);
    return e;
  }());
  out.close();
  out.raw_line("#undef STAP_NEXT");
  out.raw_line("#undef STAP_RETURN");
  out.raw_line("#undef STAP_RETVALUE");
  for (const ast::VarDecl *p : fn.params)
    out.raw_line("#undef STAP_ARG_" + p->name);
  out.raw_line("#undef CONTEXT");
}

} // namespace

std::string emit_probe_handler(Emitter &out, const std::string &name, ast::ProbeDecl &probe,
                               const debuginfo::TargetScope *scope, GlobalUseAnalysis &globals,
                               Diagnostics &diag) {
  BodyWriter w(diag, nullptr, scope);
  w.declare_locals(probe.locals);
  probe.body->accept(w);
  emit_frame_struct(out, name, w.fields_);

  GlobalUse use = globals.of_body(probe.body);
  out.open("static void " + name + "(struct stp_context *c)");
  out.line("struct " + frame_struct(name) + " *l = (struct " + frame_struct(name) +
           " *)c->frames;");
  if (!use.empty()) {
    out.open("static const struct stp_lock_req locks[] =");
    for (const auto &[g, write] : use)
      out.line("{ &" + global_lock_name(*g) + ", " + (write ? "true" : "false") + " },");
    out.close(";");
  }
  for (const std::string &init : w.inits_)
    out.line(init);
  out.line("c->frame_top = ALIGN(sizeof(*l), 8);");
  std::string n = std::to_string(use.size());
  if (!use.empty())
    out.line("if (!stp_lock_globals(c, locks, " + n + ")) return;");
  append_body(out, w.out_);
  out.raw_line("out: __attribute__((unused));");
  if (!use.empty())
    out.line("stp_unlock_globals(locks, " + n + ");");
  out.close();
  out.blank();
  return "sizeof(struct " + frame_struct(name) + ")";
}

std::string function_prototype(const ast::FunctionDecl &fn) {
  bool str = fn.return_type == ast::Type::String;
  std::string p = std::string("static ") + (str ? "const char *" : "s64 ") + function_name(fn) +
                  "(struct stp_context *c";
  if (str)
    p += ", char *ret";
  for (size_t i = 0; i < fn.params.size(); ++i)
    p += std::string(", ") + (fn.params[i]->type == ast::Type::String ? "const char *" : "s64 ") +
         "a" + std::to_string(i);
  return p + ")";
}

std::string emit_function(Emitter &out, ast::FunctionDecl &fn, Diagnostics &diag) {
  std::string name = function_name(fn);
  auto *embedded = dynamic_cast<ast::EmbeddedStmt *>(fn.body);
  BodyWriter w(diag, &fn);
  w.declare_locals(fn.params);
  w.declare_locals(fn.locals);
  if (!embedded)
    fn.body->accept(w);
  emit_frame_struct(out, name, w.fields_);

  bool str = fn.return_type == ast::Type::String;
  out.open(function_prototype(fn));
  out.line("struct " + frame_struct(name) + " *l = stp_push_frame(c, sizeof(*l));");
  if (!str)
    out.line("s64 ret = 0;");
  else
    out.line("ret[0] = '\\0';");
  out.line("if (!l)");
  out.line(str ? "\treturn ret;" : "\treturn 0;");
  for (size_t i = 0; i < fn.params.size(); ++i) {
    std::string a = "a" + std::to_string(i);
    if (fn.params[i]->type == ast::Type::String)
      out.line("stp_strcpy(" + local_name(*fn.params[i]) + ", " + a + ");");
    else
      out.line(local_name(*fn.params[i]) + " = " + a + ";");
  }
  if (embedded && embedded->code.find("/* myproc-unprivileged */") != std::string::npos) {
    // An unprivileged user may call it only from a process of their own,
    // as SystemTap 4.8's assert_is_myproc() (same message).
    out.raw_line("#ifdef STP_PRIVILEGE_USR");
    out.line("if (!stp_is_myproc()) {");
    out.line("\tsnprintf(c->error_buf, sizeof(c->error_buf), \"myproc-unprivileged tapset "
             "function called without is_myproc checking for pid %d (euid %d)\", "
             "current->tgid, (int)from_kuid_munged(current_user_ns(), current_euid()));");
    out.line("\tstp_error(c, c->error_buf);");
    out.line("\tgoto out;");
    out.line("}");
    out.raw_line("#endif");
  }
  if (embedded)
    emit_embedded_body(out, fn, embedded->code);
  else
    append_body(out, w.out_);
  out.raw_line("out: __attribute__((unused));");
  out.line("stp_pop_frame(c, sizeof(*l));");
  out.line("return ret;");
  out.close();
  out.blank();
  return "sizeof(struct " + frame_struct(name) + ")";
}

} // namespace stap::codegen
