#include "parse/preprocess.h"

#include "lang/glob.h"
#include "parse/lexer.h"

#include <cstring>
#include <set>
#include <tuple>

namespace stap::parse {
namespace {

// Expansion depth beyond which a macro is taken to be recursive.
constexpr int max_macro_depth = 100;
// Tokens one file may expand to: macros that use each other twice per
// level grow exponentially, and the limit keeps that an error.
constexpr size_t max_expanded_tokens = 4'000'000;
// Macro uses one file may expand, and tokens those expansions may copy:
// recursion that produces nothing still costs time.
constexpr size_t max_expansions = 20'000;
constexpr size_t max_copied_tokens = 1'000'000;

bool is_op(const Token &t, const char *op) { return t.kind == TokKind::Op && t.text == op; }

// The parts of one `%( cond %? then %: else %)`, as positions in a range.
struct Conditional {
  const Token *query = nullptr, *colon = nullptr, *close = nullptr;
};

// Finds the `%?`, `%:` and `%)` belonging to the `%(` at `open`.
Conditional match_conditional(const Token *open, const Token *end) {
  Conditional c;
  int nesting = 0;
  for (const Token *t = open + 1; t != end; ++t) {
    if (is_op(*t, "%(")) {
      ++nesting;
    } else if (is_op(*t, "%)")) {
      if (nesting-- == 0) {
        c.close = t;
        return c;
      }
    } else if (nesting == 0 && is_op(*t, "%?") && !c.query) {
      c.query = t;
    } else if (nesting == 0 && is_op(*t, "%:") && c.query && !c.colon) {
      c.colon = t;
    }
  }
  return c;
}

// The matching `%)` of a macro body opened at `open`, or nullptr.
const Token *match_close(const Token *open, const Token *end) {
  return match_conditional(open, end).close;
}

class Preprocessor {
public:
  Preprocessor(const ParseOptions &opts, MacroTable &local, const MacroTable *library,
               Diagnostics &diag)
      : opts_(opts), local_(local), library_(library), diag_(diag) {}

  void expand(const Token *b, const Token *e, TokenList &out, int depth);

private:
  const Token *conditional(const Token *open, const Token *e, TokenList &out, int depth);
  const Token *define(const Token *at, const Token *e);
  const Token *use_macro(const Token *at, const Token *e, const Macro &m, TokenList &out,
                         int depth);
  void script_arg(const Token &t, TokenList &out);
  const Macro *find_macro(const std::string &name) const {
    if (auto it = local_.macros.find(name); it != local_.macros.end())
      return &it->second;
    if (library_)
      if (auto it = library_->macros.find(name); it != library_->macros.end())
        return &it->second;
    return nullptr;
  }

  const ParseOptions &opts_;
  MacroTable &local_;
  const MacroTable *library_;
  Diagnostics &diag_;
  bool too_large_ = false; // stop expanding: the budget is spent
  size_t expansions_ = 0, copied_ = 0;
  // A mistake in a macro body shows wherever the macro is used: report
  // each (place, message) once.
  std::set<std::tuple<const SourceFile *, uint32_t, uint32_t, std::string>> reported_;
  void error(const SourceLoc &loc, const std::string &msg) {
    if (reported_.emplace(loc.file, loc.line, loc.col, msg).second)
      diag_.error(loc, msg);
  }
};

void Preprocessor::expand(const Token *b, const Token *e, TokenList &out, int depth) {
  for (const Token *t = b; t != e && !too_large_;) {
    if (is_op(*t, "%(")) {
      t = conditional(t, e, out, depth);
    } else if (is_op(*t, "%?") || is_op(*t, "%:") || is_op(*t, "%)")) {
      error(t->loc, "'" + t->text + "' without a matching '%('");
      ++t;
    } else if (t->kind == TokKind::AtIdent && t->text == "@define") {
      t = define(t, e);
    } else if (t->kind == TokKind::AtIdent && find_macro(t->text.substr(1))) {
      t = use_macro(t, e, *find_macro(t->text.substr(1)), out, depth);
    } else if (t->kind == TokKind::ScriptArg) {
      script_arg(*t, out);
      ++t;
    } else {
      out.push_back(*t++);
    }
  }
}

// conditional = '%(' condition '%?' tokens ['%:' tokens] '%)'
const Token *Preprocessor::conditional(const Token *open, const Token *e, TokenList &out,
                                       int depth) {
  Conditional c = match_conditional(open, e);
  if (!c.close || !c.query) {
    error(open->loc, c.close ? "expected '%?' in this preprocessor conditional"
                                   : "unterminated preprocessor conditional (missing '%)')");
    return c.close ? c.close + 1 : e;
  }
  TokenList cond;
  expand(open + 1, c.query, cond, depth);
  if (cond.empty()) {
    error(c.query->loc, "expected a preprocessor condition before '%?'");
    return c.close + 1;
  }
  bool value = evaluate_condition(cond.data(), cond.data() + cond.size(), opts_.env, diag_);
  if (value)
    expand(c.query + 1, c.colon ? c.colon : c.close, out, depth);
  else if (c.colon)
    expand(c.colon + 1, c.close, out, depth);
  return c.close + 1;
}

// define = '@define' identifier ['(' identifier {',' identifier} ')'] '%(' tokens '%)'
const Token *Preprocessor::define(const Token *at, const Token *e) {
  const Token *t = at + 1;
  if (t == e || t->kind != TokKind::Ident || is_keyword(t->text)) {
    error((t == e ? at : t)->loc, "expected a macro name after '@define'");
    return t;
  }
  std::string name = t->text;
  Macro m;
  m.loc = t->loc;
  ++t;
  if (t != e && is_op(*t, "(")) {
    for (++t;; ++t) {
      if (t == e || t->kind != TokKind::Ident) {
        error((t == e ? at : t)->loc, "expected a macro parameter name");
        return t;
      }
      m.params.push_back(t->text);
      ++t;
      if (t != e && is_op(*t, ")"))
        break;
      if (t == e || !is_op(*t, ",")) {
        error((t == e ? at : t)->loc, "expected ',' or ')' in macro parameters");
        return t;
      }
    }
    ++t;
  }
  if (t == e || !is_op(*t, "%(")) {
    error((t == e ? at : t)->loc, "expected '%(' to start the body of macro '@" + name + "'");
    return t;
  }
  const Token *close = match_close(t, e);
  if (!close) {
    error(t->loc, "unterminated body of macro '@" + name + "' (missing '%)')");
    return e;
  }
  m.body.assign(t + 1, close);
  if (local_.macros.count(name))
    error(m.loc, "macro '@" + name + "' is already defined");
  else
    local_.macros.emplace(name, std::move(m));
  return close + 1;
}

// use = '@' name ['(' tokens {',' tokens} ')']   (arguments only if declared)
const Token *Preprocessor::use_macro(const Token *at, const Token *e, const Macro &m,
                                     TokenList &out, int depth) {
  if (depth >= max_macro_depth) {
    error(at->loc, "macro '" + at->text + "' expands too deeply (recursive?)");
    return e;
  }
  if (out.size() > max_expanded_tokens || ++expansions_ > max_expansions) {
    error(at->loc, "macro expansion of '" + at->text + "' is too large");
    too_large_ = true;
    return e;
  }
  const Token *t = at + 1;
  std::vector<TokenList> args;
  if (!m.params.empty()) {
    if (t == e || !is_op(*t, "(")) {
      error((t == e ? at : t)->loc, "expected '(' after macro '" + at->text + "'");
      return t;
    }
    args.emplace_back();
    int nesting = 0;
    for (++t;; ++t) {
      if (t == e) {
        error(at->loc, "unterminated arguments of macro '" + at->text + "'");
        return e;
      }
      bool opener = is_op(*t, "(") || is_op(*t, "[") || is_op(*t, "{") || is_op(*t, "%(");
      bool closer = is_op(*t, ")") || is_op(*t, "]") || is_op(*t, "}") || is_op(*t, "%)");
      if (nesting == 0 && is_op(*t, ")"))
        break;
      if (nesting == 0 && is_op(*t, ",")) {
        args.emplace_back();
        continue;
      }
      nesting += opener - closer;
      args.back().push_back(*t);
    }
    ++t;
    if (args.size() != m.params.size()) {
      error(at->loc, "macro '" + at->text + "' takes " + std::to_string(m.params.size()) +
                               " argument" + (m.params.size() == 1 ? "" : "s") + ", " +
                               std::to_string(args.size()) + " given");
      return t;
    }
  }
  copied_ += m.body.size();
  for (const TokenList &a : args)
    copied_ += a.size();
  if (copied_ > max_copied_tokens) {
    error(at->loc, "macro expansion of '" + at->text + "' is too large");
    too_large_ = true;
    return e;
  }
  TokenList body;
  for (const Token &b : m.body) {
    size_t p = 0;
    if (b.kind == TokKind::AtIdent)
      while (p < m.params.size() && "@" + m.params[p] != b.text)
        ++p;
    if (b.kind != TokKind::AtIdent || p == m.params.size()) {
      body.push_back(b);
      continue;
    }
    size_t first = body.size();
    body.insert(body.end(), args[p].begin(), args[p].end());
    if (first < body.size())
      body[first].space_before = b.space_before;
  }
  size_t first = out.size();
  expand(body.data(), body.data() + body.size(), out, depth + 1);
  if (first < out.size())
    out[first].space_before = at->space_before;
  return t;
}

// `$N` pastes argument N's tokens, `@N` is it as a string; `$#`/`@#` count.
void Preprocessor::script_arg(const Token &t, TokenList &out) {
  const auto &args = opts_.script_args;
  Token r = t;
  char sigil = t.text[0];
  if (t.text[1] == '#') {
    std::string n = std::to_string(args.size());
    r.kind = sigil == '$' ? TokKind::Number : TokKind::String;
    r.text = n;
    r.number = static_cast<int64_t>(args.size());
    out.push_back(r);
    return;
  }
  size_t n = std::strtoul(t.text.c_str() + 1, nullptr, 10);
  if (n == 0 || n > args.size()) {
    error(t.loc, "command line argument " + t.text + " not given (" +
                           std::to_string(args.size()) + " available)");
    return;
  }
  if (sigil == '@') {
    r.kind = TokKind::String;
    r.text = args[n - 1];
    out.push_back(r);
    return;
  }
  TokenList pasted = lex_fragment(args[n - 1], t.loc, diag_);
  pasted.pop_back(); // End
  for (size_t i = 0; i < pasted.size(); ++i) {
    pasted[i].space_before = i == 0 ? t.space_before : pasted[i].space_before;
    out.push_back(pasted[i]);
  }
}

// ---------------------------------------------------------------- conditions

// condition = and_cond {'||' and_cond}
// and_cond = comparison {'&&' comparison}
// comparison = version_name op string          (kernel_v kernel_vr systemtap_v)
//            | (arch | runtime) ('==' | '!=') string        (wildcards)
//            | systemtap_privilege ('==' | '!=') string     (exact)
//            | guru_mode ('==' | '!=') ('0' | '1')
//            | CONFIG_* ('==' | '!=') string                (wildcards)
//            | CONFIG_* op (number | CONFIG_*)
//            | string op string | number op number
// op = '==' | '!=' | '<' | '<=' | '>' | '>='. This is SystemTap 4.8's
// grammar, checked against its -p1 verdicts (testsuite/scripts/errors/
// conditionals/): no parentheses, no negative numbers, no keyword on the
// right, a number only after guru_mode, CONFIG_* and numbers.
class ConditionEvaluator {
public:
  ConditionEvaluator(const Token *b, const Token *e, const PreprocessorEnv &env,
                     Diagnostics &diag)
      : t_(b), e_(e), env_(env), diag_(diag) {}

  bool run() {
    bool v = or_cond();
    if (ok_ && t_ != e_)
      fail(*t_, "expected '&&', '||' or '%?' in preprocessor condition");
    return ok_ && v;
  }

private:
  bool or_cond() {
    bool v = and_cond();
    while (ok_ && t_ != e_ && is_op(*t_, "||")) {
      ++t_;
      bool r = and_cond();
      v = v || r;
    }
    return v;
  }
  bool and_cond() {
    bool v = comparison();
    while (ok_ && t_ != e_ && is_op(*t_, "&&")) {
      ++t_;
      bool r = comparison();
      v = v && r;
    }
    return v;
  }

  static int compare_numbers(int64_t a, int64_t b) { return a < b ? -1 : a > b ? 1 : 0; }
  static bool has_wildcard(const std::string &s) { return lang::has_glob(s); }
  static int glob_compare(const std::string &pattern, const std::string &value) {
    return lang::glob_match(pattern, value) ? 0 : 1;
  }

  // The operator after the left operand: any of the six, or, with
  // `eq_only`, '==' and '!=' alone.
  const Token *comparison_op(bool eq_only) {
    if (t_ == e_ || t_->kind != TokKind::Op ||
        !(is_op(*t_, "==") || is_op(*t_, "!=") || is_op(*t_, "<") || is_op(*t_, "<=") ||
          is_op(*t_, ">") || is_op(*t_, ">="))) {
      fail(t_ == e_ ? e_[-1] : *t_,
           "expected a comparison operator in preprocessor condition" +
               (t_ == e_ ? std::string() : " before " + describe(*t_)));
      return nullptr;
    }
    if (eq_only && !is_op(*t_, "==") && !is_op(*t_, "!=")) {
      fail(*t_, "only '==' and '!=' apply to this preprocessor condition");
      return nullptr;
    }
    return t_++;
  }

  // The right operand: a literal of `kind` (TokKind::String or Number).
  const Token *literal(TokKind kind, const std::string &after) {
    if (t_ == e_ || t_->kind != kind) {
      fail(t_ == e_ ? e_[-1] : *t_,
           std::string("expected a ") + (kind == TokKind::String ? "string" : "number") +
               " literal after " + after + " in preprocessor condition");
      return nullptr;
    }
    return t_++;
  }

  static bool result(const Token &op, int cmp) {
    if (op.text == "==") return cmp == 0;
    if (op.text == "!=") return cmp != 0;
    if (op.text == "<") return cmp < 0;
    if (op.text == "<=") return cmp <= 0;
    if (op.text == ">") return cmp > 0;
    return cmp >= 0; // ">="
  }

  bool comparison() {
    if (t_ == e_) {
      fail(e_[-1], "expected a preprocessor condition operand");
      return false;
    }
    const Token &l = *t_++;
    const Token *op, *r;
    const std::string what = "'" + l.text + "'";
    if (l.kind == TokKind::Ident && (l.text == "kernel_v" || l.text == "kernel_vr" ||
                                     l.text == "systemtap_v")) {
      std::string v = l.text == "systemtap_v" ? env_.systemtap_version : env_.kernel_release;
      if (l.text == "kernel_v")
        v = v.substr(0, v.find('-'));
      if (!(op = comparison_op(false)) || !(r = literal(TokKind::String, what)))
        return false;
      bool equality = op->text == "==" || op->text == "!=";
      return result(*op, equality && has_wildcard(r->text) ? glob_compare(r->text, v)
                                                          : strverscmp(v.c_str(), r->text.c_str()));
    }
    if (l.kind == TokKind::Ident && (l.text == "arch" || l.text == "runtime" ||
                                     l.text == "systemtap_privilege")) {
      if (!(op = comparison_op(true)) || !(r = literal(TokKind::String, what)))
        return false;
      if (l.text == "systemtap_privilege") // 4.8 compares it exactly
        return result(*op, r->text == env_.privilege ? 0 : 1);
      return result(*op, glob_compare(r->text, l.text == "arch" ? env_.arch : env_.runtime));
    }
    if (l.kind == TokKind::Ident && l.text == "guru_mode") {
      if (!(op = comparison_op(true)) || !(r = literal(TokKind::Number, what)))
        return false;
      if (r->number != 0 && r->number != 1) {
        fail(*r, "guru_mode is compared with 0 or 1 in preprocessor condition");
        return false;
      }
      return result(*op, compare_numbers(env_.guru_mode ? 1 : 0, r->number));
    }
    if (l.kind == TokKind::Ident && l.text.rfind("CONFIG_", 0) == 0)
      return config_comparison(l);
    if (l.kind == TokKind::Number || l.kind == TokKind::String) {
      if (!(op = comparison_op(false)) ||
          !(r = literal(l.kind, l.kind == TokKind::Number ? "a number" : "a string")))
        return false;
      // two strings compare exactly: no wildcards (as 4.8)
      return result(*op, l.kind == TokKind::Number ? compare_numbers(l.number, r->number)
                                                   : l.text.compare(r->text));
    }
    fail(l, l.kind == TokKind::Ident
                ? "unknown preprocessor condition '" + l.text + "'"
                : "expected a preprocessor condition operand before " + describe(l) +
                      " (kernel_v, kernel_vr, systemtap_v, arch, runtime, systemtap_privilege, "
                      "guru_mode, CONFIG_..., or a string or number literal)");
    return false;
  }

  std::string config_value(const std::string &name) const {
    auto it = env_.kernel_config.find(name);
    return it == env_.kernel_config.end() ? "" : it->second;
  }

  // CONFIG_X == "y" (wildcards; '==' and '!=' only), CONFIG_HZ > 100 (the
  // option's value must be a number; unset is 0), CONFIG_A >= CONFIG_B
  // (numerically when both are numbers, else as strings).
  bool config_comparison(const Token &l) {
    std::string v = config_value(l.text);
    if (t_ != e_ && (is_op(*t_, "==") || is_op(*t_, "!=")) && t_ + 1 != e_ &&
        t_[1].kind == TokKind::String) {
      const Token &op = *t_;
      t_ += 2;
      return result(op, glob_compare(t_[-1].text, v));
    }
    const Token *op = comparison_op(false);
    if (!op)
      return false;
    if (t_ != e_ && t_->kind == TokKind::String) {
      fail(*op, "only '==' and '!=' apply to this preprocessor condition");
      return false;
    }
    if (t_ != e_ && t_->kind == TokKind::Ident && t_->text.rfind("CONFIG_", 0) == 0) {
      std::string w = config_value((t_++)->text);
      char *lend, *rend;
      long long a = std::strtoll(v.c_str(), &lend, 0), b = std::strtoll(w.c_str(), &rend, 0);
      bool numeric = !v.empty() && !*lend && !w.empty() && !*rend;
      return result(*op, numeric ? compare_numbers(a, b) : v.compare(w));
    }
    if (t_ == e_ || t_->kind != TokKind::Number) {
      fail(t_ == e_ ? e_[-1] : *t_,
           "expected a string, a number or a CONFIG_ option after '" + l.text +
               "' in preprocessor condition");
      return false;
    }
    const Token &r = *t_++;
    char *end;
    long long a = std::strtoll(v.c_str(), &end, 0);
    if (!v.empty() && *end) {
      fail(l, "'" + l.text + "' is \"" + v + "\", not a number, in preprocessor condition");
      return false;
    }
    return result(*op, compare_numbers(a, r.number));
  }

  void fail(const Token &t, const std::string &msg) {
    if (ok_)
      diag_.error(t.loc, msg);
    ok_ = false;
  }

  const Token *t_, *e_;
  const PreprocessorEnv &env_;
  Diagnostics &diag_;
  bool ok_ = true;
};

} // namespace

bool evaluate_condition(const Token *begin, const Token *end, const PreprocessorEnv &env,
                        Diagnostics &diag) {
  return ConditionEvaluator(begin, end, env, diag).run();
}

TokenList preprocess(const TokenList &in, const ParseOptions &opts, MacroTable &local,
                     const MacroTable *library, Diagnostics &diag) {
  TokenList out;
  out.reserve(in.size());
  Preprocessor(opts, local, library, diag).expand(in.data(), in.data() + in.size() - 1, out, 0);
  out.push_back(in.back()); // End
  return out;
}

} // namespace stap::parse
