#include "tapsets/index.h"

#include "lang/glob.h"
#include "parse/lexer.h"

#include <sstream>

namespace stap::tapsets {
namespace {

// The few token kinds the top-level scan tells apart.
struct Tok {
  enum Kind { Ident, Punct, Literal, End } kind;
  std::string_view text;
};

// The real lexer's tokens (parse/lexer.h), as the scan sees them: keywords,
// identifiers and @names are Ident, operators Punct, and numbers, strings,
// script arguments and embedded C (`%{ %}`, which cannot hold
// declarations) opaque Literals.
class Scanner {
public:
  explicit Scanner(const parse::TokenList &toks) : toks_(toks) {}

  Tok next() {
    if (i_ >= toks_.size())
      return {Tok::End, {}};
    const parse::Token &t = toks_[i_++];
    switch (t.kind) {
    case parse::TokKind::Ident:
    case parse::TokKind::AtIdent:
      return {Tok::Ident, t.text};
    case parse::TokKind::Op:
      return {Tok::Punct, t.text};
    case parse::TokKind::End:
      return {Tok::End, {}};
    default:
      return {Tok::Literal, t.text};
    }
  }

private:
  const parse::TokenList &toks_;
  size_t i_ = 0;
};

// Reads the declarations at brace depth 0.
class TopLevelScan {
public:
  TopLevelScan(std::string path, const parse::TokenList &toks) : sc_(toks) {
    defs_.path = std::move(path);
  }

  FileDefs run() {
    advance();
    while (tok_.kind != Tok::End) {
      if (depth_ == 0 && tok_.kind == Tok::Ident && declaration())
        continue;
      track_nesting();
      advance();
    }
    if (depth_ != 0 || !cond_depths_.empty())
      defs_.always = true;
    return std::move(defs_);
  }

private:
  void advance() { tok_ = sc_.next(); }
  bool is(std::string_view t) const { return tok_.text == t && tok_.kind != Tok::Literal; }

  // Braces, and preprocessor branches: each branch starts at the depth
  // the conditional started at, so `%( c %? probe a = b { %: probe a = c { %)`
  // stays balanced.
  void track_nesting() {
    if (is("{")) {
      ++depth_;
    } else if (is("}")) {
      --depth_;
      if (depth_ < 0) {
        defs_.always = true;
        depth_ = 0;
      }
    } else if (is("%(")) {
      cond_depths_.push_back(depth_);
      skip_condition();
    } else if (is("%:") && !cond_depths_.empty()) {
      depth_ = cond_depths_.back();
    } else if (is("%)") && !cond_depths_.empty()) {
      cond_depths_.pop_back();
    }
  }

  // From after `%(` up to and including `%?`.
  void skip_condition() {
    advance();
    while (tok_.kind != Tok::End && !is("%?"))
      advance();
  }

  // At an identifier at depth 0. Returns true when it consumed a
  // declaration (and stands on the token after it).
  bool declaration() {
    bool is_private = false;
    if (is("private")) {
      is_private = true;
      advance();
    }
    if (is("function"))
      return function(is_private), true;
    if (is("global"))
      return global(is_private), true;
    if (is("probe"))
      return probe(), true;
    if (is("@define"))
      return define(), true;
    return is_private; // a stray `private`: consumed
  }

  // function NAME[:type] (params) [:priority]
  void function(bool is_private) {
    advance();
    if (tok_.kind != Tok::Ident)
      return;
    std::string name(tok_.text);
    advance();
    if (is(":")) {
      advance();
      advance();
    }
    if (!is("("))
      return;
    int arity = 0, parens = 1;
    bool any = false;
    for (advance(); tok_.kind != Tok::End && parens > 0; advance()) {
      if (is("("))
        ++parens;
      else if (is(")"))
        --parens;
      else if (is(",") && parens == 1)
        ++arity;
      else
        any = true;
    }
    if (any)
      ++arity;
    if (!is_private)
      defs_.functions.push_back({name, arity});
  }

  // global A [= lit], B[N], C% ...
  void global(bool is_private) {
    for (;;) {
      advance();
      if (tok_.kind != Tok::Ident)
        return;
      if (!is_private)
        defs_.globals.emplace_back(tok_.text);
      advance();
      if (is("%"))
        advance();
      if (is("[")) {
        while (tok_.kind != Tok::End && !is("]"))
          advance();
        advance();
      }
      if (is("%"))
        advance();
      if (is("=")) {
        advance();
        if (is("-"))
          advance();
        advance();
      }
      if (!is(","))
        return;
    }
  }

  // probe P1, P2 = ... (an alias: record P1, P2) or probe P { ... }.
  void probe() {
    std::vector<std::string> names;
    std::string cur;
    int parens = 0;
    for (advance(); tok_.kind != Tok::End; advance()) {
      if (parens > 0) {
        if (is("("))
          ++parens;
        else if (is(")"))
          --parens;
        continue;
      }
      if (is("(")) {
        ++parens;
      } else if (tok_.kind == Tok::Ident || is("*")) {
        cur += tok_.text;
      } else if (is(".")) {
        cur += '.';
      } else if (is(",")) {
        names.push_back(std::move(cur));
        cur.clear();
      } else if (is("=") || is("+=")) {
        names.push_back(std::move(cur));
        for (auto &n : names)
          if (!n.empty())
            defs_.aliases.push_back(std::move(n));
        advance();
        return;
      } else if (is("?") || is("!")) {
        continue;
      } else {
        return; // `{`, `if`: a probe, not an alias; the caller tracks the brace
      }
    }
  }

  // @define NAME[(params)] %( body %)
  void define() {
    advance();
    advance();
    if (is("(")) {
      while (tok_.kind != Tok::End && !is(")"))
        advance();
      advance();
    }
    if (!is("%("))
      return;
    int n = 1;
    for (advance(); tok_.kind != Tok::End && n > 0; advance())
      if (is("%("))
        ++n;
      else if (is("%)"))
        --n;
  }

  Scanner sc_;
  Tok tok_{Tok::End, {}};
  int depth_ = 0;
  std::vector<int> cond_depths_;
  FileDefs defs_;
};

} // namespace

FileDefs scan_tapset(std::string path, std::string_view text) {
  // Lexical errors are the parser's to report, if the file is ever loaded;
  // a file the lexer cannot follow is loaded whenever anything is needed.
  std::ostringstream ignored;
  Diagnostics diag(ignored);
  SourceFile src(path, std::string(text), /*privileged=*/true);
  parse::TokenList toks = parse::lex(src, diag);
  FileDefs defs = TopLevelScan(std::move(path), toks).run();
  defs.always = defs.always || diag.errors() > 0;
  return defs;
}

std::vector<size_t> TapsetIndex::files_defining_symbol(std::string_view name) const {
  std::vector<size_t> out;
  for (size_t i = 0; i < files_.size(); ++i) {
    const FileDefs &f = files_[i];
    bool hit = f.always;
    for (const auto &fn : f.functions)
      hit = hit || fn.name == name;
    for (const auto &g : f.globals)
      hit = hit || g == name;
    if (hit)
      out.push_back(i);
  }
  return out;
}

std::vector<size_t> TapsetIndex::files_defining_alias(std::string_view point) const {
  std::vector<size_t> out;
  for (size_t i = 0; i < files_.size(); ++i) {
    bool hit = files_[i].always;
    for (const auto &a : files_[i].aliases)
      hit = hit || lang::point_could_name_alias(point, a);
    if (hit)
      out.push_back(i);
  }
  return out;
}

} // namespace stap::tapsets
