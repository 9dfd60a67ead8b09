#include "tapsets/index.h"

#include <cctype>

namespace stap::tapsets {
namespace {

// The few token kinds the top-level scan needs.
struct Tok {
  enum Kind { Ident, Punct, Literal, End } kind;
  std::string_view text;
};

// Splits script text into identifiers, literals and punctuation; skips
// comments and embedded C (`%{ ... %}`), which cannot hold declarations.
class Scanner {
public:
  explicit Scanner(std::string_view s) : s_(s) {}

  Tok next() {
    skip_space_and_comments();
    if (i_ >= s_.size())
      return {Tok::End, {}};
    size_t start = i_;
    char c = s_[i_];
    if ((c == '$' || c == '@') && i_ + 1 < s_.size() && s_[i_ + 1] == '#') {
      i_ += 2; // $# and @#, not a comment
      return {Tok::Literal, s_.substr(start, 2)};
    }
    if (std::isalpha(static_cast<unsigned char>(c)) || c == '_' || c == '@' || c == '$') {
      ++i_;
      while (i_ < s_.size() && (std::isalnum(static_cast<unsigned char>(s_[i_])) || s_[i_] == '_'))
        ++i_;
      return {Tok::Ident, s_.substr(start, i_ - start)};
    }
    if (std::isdigit(static_cast<unsigned char>(c))) {
      while (i_ < s_.size() && std::isalnum(static_cast<unsigned char>(s_[i_])))
        ++i_;
      return {Tok::Literal, s_.substr(start, i_ - start)};
    }
    if (c == '"') {
      for (++i_; i_ < s_.size() && s_[i_] != '"'; ++i_)
        if (s_[i_] == '\\')
          ++i_;
      ++i_;
      return {Tok::Literal, s_.substr(start, std::min(i_, s_.size()) - start)};
    }
    if (c == '%' && i_ + 1 < s_.size() && s_[i_ + 1] == '{') {
      size_t end = s_.find("%}", i_ + 2);
      i_ = end == std::string_view::npos ? s_.size() : end + 2;
      return {Tok::Literal, s_.substr(start, i_ - start)}; // embedded C: opaque
    }
    static const char *two[] = {"%(", "%?", "%:", "%)", "+=", "==", "!="};
    for (const char *t : two)
      if (s_.substr(i_, 2) == t) {
        i_ += 2;
        return {Tok::Punct, s_.substr(start, 2)};
      }
    ++i_;
    return {Tok::Punct, s_.substr(start, 1)};
  }

private:
  void skip_space_and_comments() {
    while (i_ < s_.size()) {
      char c = s_[i_];
      if (std::isspace(static_cast<unsigned char>(c))) {
        ++i_;
      } else if (c == '#' || (c == '/' && i_ + 1 < s_.size() && s_[i_ + 1] == '/')) {
        size_t nl = s_.find('\n', i_);
        i_ = nl == std::string_view::npos ? s_.size() : nl + 1;
      } else if (c == '/' && i_ + 1 < s_.size() && s_[i_ + 1] == '*') {
        size_t end = s_.find("*/", i_ + 2);
        i_ = end == std::string_view::npos ? s_.size() : end + 2;
      } else {
        return;
      }
    }
  }

  std::string_view s_;
  size_t i_ = 0;
};

// Reads the declarations at brace depth 0.
class TopLevelScan {
public:
  TopLevelScan(std::string path, std::string_view text) : sc_(text) { defs_.path = std::move(path); }

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

std::vector<std::string_view> split_dots(std::string_view s) {
  std::vector<std::string_view> out;
  size_t start = 0;
  for (;;) {
    size_t dot = s.find('.', start);
    out.push_back(s.substr(start, dot == std::string_view::npos ? std::string_view::npos : dot - start));
    if (dot == std::string_view::npos)
      return out;
    start = dot + 1;
  }
}

} // namespace

bool component_matches(std::string_view p, std::string_view n) {
  // Iterative glob with backtracking on the last '*'.
  size_t pi = 0, ni = 0, star = std::string_view::npos, mark = 0;
  while (ni < n.size()) {
    if (pi < p.size() && p[pi] == '*') {
      star = pi++;
      mark = ni;
    } else if (pi < p.size() && p[pi] == n[ni]) {
      ++pi;
      ++ni;
    } else if (star != std::string_view::npos) {
      pi = star + 1;
      ni = ++mark;
    } else {
      return false;
    }
  }
  while (pi < p.size() && p[pi] == '*')
    ++pi;
  return pi == p.size();
}

FileDefs scan_tapset(std::string path, std::string_view text) {
  return TopLevelScan(std::move(path), text).run();
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

bool point_could_name_alias(std::string_view point, std::string_view alias) {
  auto p = split_dots(point), a = split_dots(alias);
  for (size_t i = 0; i < p.size(); ++i) {
    if (p[i].find("**") != std::string_view::npos)
      return true; // `**` (`sys**open` too) may span any components
    if (i >= a.size())
      return true; // the rest of the point are suffixes of the alias
    if (!component_matches(p[i], a[i]))
      return false;
  }
  return p.size() >= a.size();
}

std::vector<size_t> TapsetIndex::files_defining_alias(std::string_view point) const {
  std::vector<size_t> out;
  for (size_t i = 0; i < files_.size(); ++i) {
    bool hit = files_[i].always;
    for (const auto &a : files_[i].aliases)
      hit = hit || point_could_name_alias(point, a);
    if (hit)
      out.push_back(i);
  }
  return out;
}

} // namespace stap::tapsets
