#include "parse/preprocess.h"

#include "parse/lexer.h"

#include <cstring>
#include <set>
#include <tuple>
#include <fnmatch.h>

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
// comparison = operand ('==' | '!=' | '<' | '<=' | '>' | '>=') operand
// operand = kernel_v | kernel_vr | arch | CONFIG_* | systemtap_v
//         | systemtap_privilege | guru_mode | runtime | ['-'] number | string
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

  struct Operand {
    enum Kind { Number, String, Version, Glob, Config } kind;
    std::string text;
    int64_t number = 0;
  };

  bool operand(Operand &o) {
    if (t_ == e_) {
      fail(e_[-1], "expected a preprocessor condition operand");
      return false;
    }
    const Token &t = *t_++;
    if (t.kind == TokKind::Number) {
      o = {Operand::Number, t.text, t.number};
    } else if (is_op(t, "-") && t_ != e_ && t_->kind == TokKind::Number) {
      o = {Operand::Number, "-" + t_->text, -t_->number};
      ++t_;
    } else if (t.kind == TokKind::String) {
      o = {Operand::String, t.text, 0};
    } else if (t.kind != TokKind::Ident) {
      fail(t, "expected a preprocessor condition operand before " + describe(t));
      return false;
    } else if (t.text == "kernel_v" || t.text == "kernel_vr") {
      std::string r = env_.kernel_release;
      if (t.text == "kernel_v")
        r = r.substr(0, r.find('-'));
      o = {Operand::Version, r, 0};
    } else if (t.text == "systemtap_v") {
      o = {Operand::Version, env_.systemtap_version, 0};
    } else if (t.text == "arch") {
      o = {Operand::Glob, env_.arch, 0};
    } else if (t.text == "systemtap_privilege") {
      o = {Operand::Glob, env_.privilege, 0};
    } else if (t.text == "runtime") {
      o = {Operand::Glob, env_.runtime, 0};
    } else if (t.text == "guru_mode") {
      o = {Operand::Number, env_.guru_mode ? "1" : "0", env_.guru_mode ? 1 : 0};
    } else if (t.text.rfind("CONFIG_", 0) == 0) {
      auto it = env_.kernel_config.find(t.text);
      o = {Operand::Config, it == env_.kernel_config.end() ? "" : it->second, 0};
    } else {
      fail(t, "unknown preprocessor condition '" + t.text + "'");
      return false;
    }
    return true;
  }

  bool comparison() {
    Operand l, r;
    if (!operand(l))
      return false;
    if (t_ == e_ || t_->kind != TokKind::Op) {
      fail(t_ == e_ ? e_[-1] : *t_, "expected a comparison operator in preprocessor condition");
      return false;
    }
    const Token &op = *t_++;
    if (!operand(r))
      return false;
    bool relational = op.text != "==" && op.text != "!=";
    int cmp;
    bool eq_only = false;
    if (l.kind == Operand::Config && relational) {
      // CONFIG_NR_CPUS >= CONFIG_SPLIT_PTLOCK_CPUS, CONFIG_HZ > 100:
      // numerically when both sides are numbers, else as strings.
      const std::string &rt = r.text;
      char *lend, *rend;
      long long a = std::strtoll(l.text.c_str(), &lend, 0);
      long long b = r.kind == Operand::Number ? r.number : std::strtoll(rt.c_str(), &rend, 0);
      bool numeric = !l.text.empty() && !*lend &&
                     (r.kind == Operand::Number || (!rt.empty() && !*rend));
      cmp = numeric ? (a < b ? -1 : a > b ? 1 : 0) : l.text.compare(rt);
    } else if (l.kind == Operand::Number || r.kind == Operand::Number) {
      int64_t a = l.number, b = r.number;
      if (l.kind == Operand::Config && r.kind == Operand::Number)
        a = std::strtoll(l.text.c_str(), nullptr, 0); // CONFIG_X == 4
      else if (l.kind != Operand::Number || r.kind != Operand::Number) {
        fail(op, "cannot compare a number with a string in preprocessor condition");
        return false;
      }
      cmp = a < b ? -1 : a > b ? 1 : 0;
    } else if (l.kind == Operand::Version) {
      if (!relational && r.text.find_first_of("*?[") != std::string::npos)
        cmp = fnmatch(r.text.c_str(), l.text.c_str(), 0) == 0 ? 0 : 1;
      else
        cmp = strverscmp(l.text.c_str(), r.text.c_str());
    } else if (l.kind == Operand::Glob || l.kind == Operand::Config) {
      eq_only = l.kind == Operand::Glob;
      cmp = fnmatch(r.text.c_str(), l.text.c_str(), 0) == 0 ? 0 : 1;
    } else {
      cmp = l.text.compare(r.text);
    }
    if (op.text == "==") return cmp == 0;
    if (op.text == "!=") return cmp != 0;
    if (eq_only) {
      fail(op, "only '==' and '!=' apply to this preprocessor condition");
      return false;
    }
    if (op.text == "<") return cmp < 0;
    if (op.text == "<=") return cmp <= 0;
    if (op.text == ">") return cmp > 0;
    if (op.text == ">=") return cmp >= 0;
    fail(op, "expected a comparison operator in preprocessor condition before " + describe(op));
    return false;
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
