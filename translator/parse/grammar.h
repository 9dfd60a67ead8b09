// Shared pieces of the token-level X3 grammar: the parse state passed to
// semantic actions with x3::with<>, the token primitives, and the entry
// points of the grammar parts (expressions, statements, declarations), each
// compiled in its own translation unit to keep X3 compile times bearable.
#pragma once
#include "ast/ast.h"
#include "parse/token.h"
#include "util/diag.h"

#include <boost/spirit/home/x3.hpp>

#include <array>
#include <string>

namespace stap::parse {
namespace x3 = boost::spirit::x3;

using TokIter = const Token *;

// Everything semantic actions need: where nodes go, and the rules that
// depend on who wrote the file.
struct ParseState {
  ast::Arena &arena;
  Diagnostics &diag;
  const SourceFile &src;
  bool embedded_allowed; // tapset file or guru mode
  ast::File *file = nullptr;      // where declarations go
  int depth = 0;                  // current nesting, see `nested`
  const Token *private_kw = nullptr; // the `private` before this declaration
  bool in_function = false;       // in a function's body: `return` is allowed

  template <typename T> T *make(const Token *at) { return arena.make<T>(at->loc); }
  template <typename T> T *make(const SourceLoc &loc) { return arena.make<T>(loc); }
};
struct state_tag;

template <typename Context> ParseState &state(const Context &ctx) {
  return x3::get<state_tag>(ctx);
}

// A parse error with its own wording (not "expected X"), thrown by
// semantic actions and reported like an expectation failure.
struct ParseError {
  const Token *where;
  std::string message;
};

// ---------------------------------------------------------------- primitives

// Matches one token of `kind` whose text is one of `texts` (any text if
// none given). Attribute: the token.
struct TokenParser : x3::parser<TokenParser> {
  using attribute_type = const Token *;
  static constexpr bool has_attribute = true;
  TokKind kind;
  std::array<const char *, 16> texts{};
  const char *name;     // for "expected NAME"
  char first_char = 0;  // if set, the text must start with it (`$name`)

  template <typename It, typename Ctx, typename RCtx, typename Attr>
  bool parse(It &first, It last, const Ctx &, RCtx &, Attr &attr) const {
    if (first == last || !matches(*first))
      return false;
    x3::traits::move_to(&*first, attr);
    ++first;
    return true;
  }
  bool matches(const Token &t) const {
    if (t.kind != kind || (first_char && t.text[0] != first_char))
      return false;
    if (!texts[0])
      return true;
    for (const char *s : texts)
      if (s && t.text == s)
        return true;
    return false;
  }
};

// Matches one token and discards it: punctuation and keywords.
struct LiteralParser : x3::parser<LiteralParser> {
  using attribute_type = x3::unused_type;
  static constexpr bool has_attribute = false;
  TokKind kind;
  const char *text;
  const char *name;

  template <typename It, typename Ctx, typename RCtx, typename Attr>
  bool parse(It &first, It last, const Ctx &, RCtx &, Attr &) const {
    if (first == last || first->kind != kind || first->text != text)
      return false;
    ++first;
    return true;
  }
};

// `p("(")`: punctuation or an operator token, no attribute.
inline LiteralParser p(const char *text) {
  return LiteralParser{{}, TokKind::Op, text, text};
}
// `kw("if")`: a keyword, no attribute.
inline LiteralParser kw(const char *text) {
  return LiteralParser{{}, TokKind::Ident, text, text};
}
// `kwt("if")` / `pt("{")`: like kw / p, but the attribute is the token
// (for actions that need its location).
inline TokenParser kwt(const char *text) { return TokenParser{{}, TokKind::Ident, {text}, text}; }
inline TokenParser pt(const char *text) { return TokenParser{{}, TokKind::Op, {text}, text}; }
// `ops({"+", "-"})`: one of these operators; attribute is the token.
template <typename... S> TokenParser ops(const char *name, S... texts) {
  TokenParser t{{}, TokKind::Op, {texts...}, name};
  return t;
}
inline TokenParser any_token(TokKind k, const char *name) {
  return TokenParser{{}, k, {}, name};
}
// `at("@count", "@sum")`: one of these @-words; attribute is the token.
template <typename... S> TokenParser at(const char *name, S... texts) {
  return TokenParser{{}, TokKind::AtIdent, {texts...}, name};
}
// `at_word("@cast")`: this @-word, no attribute.
inline LiteralParser at_word(const char *text) {
  return LiteralParser{{}, TokKind::AtIdent, text, text};
}

// identifier: a non-keyword Ident token. Attribute: the token.
struct IdentifierParser : x3::parser<IdentifierParser> {
  using attribute_type = const Token *;
  static constexpr bool has_attribute = true;
  template <typename It, typename Ctx, typename RCtx, typename Attr>
  bool parse(It &first, It last, const Ctx &, RCtx &, Attr &attr) const {
    if (first == last || first->kind != TokKind::Ident || first->text[0] == '$' ||
        is_keyword(first->text))
      return false;
    x3::traits::move_to(&*first, attr);
    ++first;
    return true;
  }
};
inline constexpr IdentifierParser identifier{};

// What `string` yields: where the first literal is, and the value.
struct StringValue {
  const Token *first = nullptr;
  std::string value;
};

// string: one or more adjacent string literals, concatenated.
// Attribute: the concatenated value and the first token.
struct StringParser : x3::parser<StringParser> {
  using attribute_type = StringValue;
  static constexpr bool has_attribute = true;
  template <typename It, typename Ctx, typename RCtx, typename Attr>
  bool parse(It &first, It last, const Ctx &, RCtx &, Attr &attr) const {
    if (first == last || first->kind != TokKind::String)
      return false;
    StringValue v{first, {}};
    while (first != last && first->kind == TokKind::String)
      v.value += (first++)->text;
    x3::traits::move_to(std::move(v), attr);
    return true;
  }
};
inline constexpr StringParser string_lit{};

// `named(p, "what")`: p itself, but an expectation failure on it reads
// "expected what". Unlike a rule it keeps the enclosing rule's _val, so
// actions inside can keep building the enclosing node.
template <typename Subject>
struct Named : x3::unary_parser<Subject, Named<Subject>> {
  using base_type = x3::unary_parser<Subject, Named<Subject>>;
  static bool const is_pass_through_unary = true;
  const char *name;
  constexpr Named(const Subject &s, const char *n) : base_type(s), name(n) {}
  template <typename It, typename Ctx, typename RCtx, typename Attr>
  bool parse(It &first, It last, const Ctx &ctx, RCtx &rctx, Attr &attr) const {
    return this->subject.parse(first, last, ctx, rctx, attr);
  }
};
template <typename S> constexpr auto named(const S &s, const char *name) {
  return Named<typename x3::extension::as_parser<S>::value_type>(x3::as_parser(s), name);
}

// `nested[p]`: p, one nesting level deeper. Expressions, statements and
// brace expansions recurse; a limit turns hostile input such as 10,000
// parentheses into an error instead of a stack overflow.
constexpr int max_nesting = 150;
template <typename Subject>
struct Nested : x3::unary_parser<Subject, Nested<Subject>> {
  using base_type = x3::unary_parser<Subject, Nested<Subject>>;
  static bool const is_pass_through_unary = true;
  constexpr Nested(const Subject &s) : base_type(s) {}
  template <typename It, typename Ctx, typename RCtx, typename Attr>
  bool parse(It &first, It last, const Ctx &ctx, RCtx &rctx, Attr &attr) const {
    ParseState &st = state(ctx);
    if (st.depth >= max_nesting)
      throw ParseError{&*first, "nesting too deep (more than " + std::to_string(max_nesting) +
                                    " levels)"};
    struct Leave {
      int &d;
      ~Leave() { --d; }
    } leave{++st.depth};
    return this->subject.parse(first, last, ctx, rctx, attr);
  }
};
struct NestedGen {
  template <typename S> constexpr auto operator[](const S &s) const {
    return Nested<typename x3::extension::as_parser<S>::value_type>(x3::as_parser(s));
  }
};
inline constexpr NestedGen nested{};

// ---------------------------------------------------------------- grammar parts
// Each runs its own X3 grammar from `first`, advances it past what it
// consumed, and throws x3::expectation_failure<TokIter> or ParseError on a
// committed error; false means "not here" with `first` unchanged.

bool parse_expression(TokIter &first, TokIter last, ParseState &st, ast::Expr *&out);
bool parse_statement(TokIter &first, TokIter last, ParseState &st, ast::Stmt *&out);
bool parse_block(TokIter &first, TokIter last, ParseState &st, ast::BlockStmt *&out);
// One top-level declaration, appended to `file`.
bool parse_declaration(TokIter &first, TokIter last, ParseState &st, ast::File &file);

// X3 wrappers around the parts above, so one grammar can call another.
template <typename Attr, bool (*Fn)(TokIter &, TokIter, ParseState &, Attr &)>
struct PartParser : x3::parser<PartParser<Attr, Fn>> {
  using attribute_type = Attr;
  static constexpr bool has_attribute = true;
  const char *name;
  template <typename It, typename Ctx, typename RCtx, typename A>
  bool parse(It &first, It last, const Ctx &ctx, RCtx &, A &attr) const {
    Attr out{};
    if (!Fn(first, last, state(ctx), out))
      return false;
    x3::traits::move_to(out, attr);
    return true;
  }
};
inline constexpr PartParser<ast::Expr *, parse_expression> expression_part{{}, "expression"};
inline constexpr PartParser<ast::Stmt *, parse_statement> statement_part{{}, "statement"};
inline constexpr PartParser<ast::BlockStmt *, parse_block> block_part{{}, "'{'"};

// Runs grammar `g` (with attribute type A) over [first, last) with the parse
// state in its context; the common body of the parse_* entry points.
template <typename Grammar, typename A>
bool run_grammar(const Grammar &g, TokIter &first, TokIter last, ParseState &st, A &out) {
  return x3::parse(first, last, x3::with<state_tag>(st)[g], out);
}

} // namespace stap::parse

// "expected NAME": how the primitives describe themselves in expectation
// failures.
namespace boost::spirit::x3 {
template <> struct get_info<stap::parse::TokenParser> {
  using result_type = std::string;
  std::string operator()(const stap::parse::TokenParser &p) const { return p.name; }
};
template <> struct get_info<stap::parse::LiteralParser> {
  using result_type = std::string;
  std::string operator()(const stap::parse::LiteralParser &p) const {
    return std::string("'") + p.name + "'";
  }
};
template <> struct get_info<stap::parse::IdentifierParser> {
  using result_type = std::string;
  std::string operator()(const stap::parse::IdentifierParser &) const { return "identifier"; }
};
template <> struct get_info<stap::parse::StringParser> {
  using result_type = std::string;
  std::string operator()(const stap::parse::StringParser &) const { return "string literal"; }
};
// An action is described by what it acts on.
template <typename S, typename A> struct get_info<action<S, A>> {
  using result_type = std::string;
  std::string operator()(const action<S, A> &p) const { return what(p.subject); }
};
template <typename S> struct get_info<stap::parse::Named<S>> {
  using result_type = std::string;
  std::string operator()(const stap::parse::Named<S> &p) const { return p.name; }
};
template <typename A, bool (*F)(stap::parse::TokIter &, stap::parse::TokIter,
                                stap::parse::ParseState &, A &)>
struct get_info<stap::parse::PartParser<A, F>> {
  using result_type = std::string;
  std::string operator()(const stap::parse::PartParser<A, F> &p) const { return p.name; }
};
} // namespace boost::spirit::x3
