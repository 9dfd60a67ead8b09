// The top-level grammar: probes and probe aliases with their probe points
// (brace expansion included), functions, globals and embedded C.
#include "parse/actions.h"

namespace stap::parse {
namespace {

using namespace ast;

// One probe point a written one stands for, with its own `?`/`!` and
// condition (written inside braces: `kernel.{trace("a")!, trace("b")}`).
struct Alternative {
  std::vector<ProbePointComponent> components;
  const Token *mark = nullptr;    // `?` or `!`
  const Token *if_kw = nullptr;   // `if` of the condition
  Expr *condition = nullptr;
};
// Brace expansion turns `syscall.{read,write}` into two alternatives.
using Expansion = std::vector<Alternative>;

// functor = part {part}   (parts written without spaces between them)
// part = identifier | keyword | number | '*'
// The first part may not be a number. `**` is two glued '*'.
struct FunctorParser : x3::parser<FunctorParser> {
  using attribute_type = ProbePointComponent;
  static constexpr bool has_attribute = true;

  static bool is_part(const Token &t) {
    return (t.kind == TokKind::Ident && t.text[0] != '$') || t.kind == TokKind::Number ||
           t.is_op("*");
  }
  template <typename It, typename Ctx, typename RCtx, typename Attr>
  bool parse(It &first, It last, const Ctx &, RCtx &, Attr &attr) const {
    if (first == last || !is_part(*first) || first->kind == TokKind::Number)
      return false;
    ProbePointComponent c;
    c.loc = first->loc;
    c.functor = (first++)->text;
    while (first != last && is_part(*first) && !first->space_before)
      c.functor += (first++)->text;
    x3::traits::move_to(std::move(c), attr);
    return true;
  }
};
const FunctorParser functor{};

// ---------------------------------------------------------------- actions

const auto literal_number = [](auto &ctx) {
  const Token *t = at_c<1>(_attr(ctx));
  bool negative = at_c<0>(_attr(ctx)).has_value();
  auto *n = state(ctx).template make<NumberLit>(negative ? t - 1 : t);
  n->value = negative ? static_cast<int64_t>(0 - static_cast<uint64_t>(t->number)) : t->number;
  n->spelling = (negative ? "-" : "") + t->text;
  _val(ctx) = n;
};
const auto literal_string = [](auto &ctx) {
  auto *s = state(ctx).template make<StringLit>(_attr(ctx).first);
  s->value = _attr(ctx).value;
  _val(ctx) = s;
};

const auto component = [](auto &ctx) {
  ProbePointComponent c = at_c<0>(_attr(ctx));
  c.arg = at_c<1>(_attr(ctx)).value_or(nullptr);
  _val(ctx) = Expansion{Alternative{{c}}};
};
const auto unite = [](auto &ctx) {
  for (auto &seq : _attr(ctx))
    _val(ctx).push_back(std::move(seq));
};
const auto product = [](auto &ctx) {
  Expansion out;
  for (const auto &head : _val(ctx)) {
    if (head.mark || head.if_kw)
      throw ParseError{head.mark ? head.mark : head.if_kw,
                       "'?', '!' and 'if' may only follow the last component of a probe point"};
    for (const auto &tail : _attr(ctx)) {
      out.push_back(tail);
      auto &cs = out.back().components;
      cs.insert(cs.begin(), head.components.begin(), head.components.end());
    }
  }
  _val(ctx) = std::move(out);
};
// The `?`/`!` and `if (...)` after a (possibly braced) sequence apply to
// each alternative that has none of its own.
const auto mark_all = [](auto &ctx) {
  for (auto &alt : _val(ctx))
    if (!alt.mark)
      alt.mark = _attr(ctx);
};
const auto condition_all = [](auto &ctx) {
  for (auto &alt : _val(ctx))
    if (!alt.if_kw) {
      alt.if_kw = at_c<0>(_attr(ctx));
      alt.condition = at_c<1>(_attr(ctx));
    }
};

const auto probe_point = [](auto &ctx) {
  for (auto &alt : _attr(ctx)) {
    auto *pp = state(ctx).template make<ProbePoint>(alt.components.front().loc);
    pp->components = alt.components;
    if (alt.mark) {
      pp->optional = true;
      pp->sufficient = alt.mark->text == "!";
    }
    pp->condition = alt.condition;
    _val(ctx).push_back(pp);
  }
};
const auto append_points = [](auto &ctx) {
  _val(ctx).insert(_val(ctx).end(), _attr(ctx).begin(), _attr(ctx).end());
};

const auto set_private = [](auto &ctx) { state(ctx).private_kw = _attr(ctx); };

// What `probe ...` has said before its body.
struct ProbeHeader {
  const Token *keyword = nullptr;
  std::vector<ProbePoint *> points;
  const Token *alias_op = nullptr; // `=` or `+=` of an alias
  std::vector<ProbePoint *> targets;
  BlockStmt *body = nullptr;
};

const auto probe_start = [](auto &ctx) {
  ParseState &st = state(ctx);
  if (st.private_kw)
    throw ParseError{st.private_kw, "a probe cannot be private"};
  st.in_function = false;
  _val(ctx).keyword = _attr(ctx);
};
const auto probe_points = [](auto &ctx) { _val(ctx).points = _attr(ctx); };
const auto alias_targets = [](auto &ctx) {
  _val(ctx).alias_op = at_c<0>(_attr(ctx));
  _val(ctx).targets = at_c<1>(_attr(ctx));
};
const auto probe_body = [](auto &ctx) { _val(ctx).body = _attr(ctx); };
const auto probe_decl = [](auto &ctx) {
  ParseState &st = state(ctx);
  ProbeHeader &h = _val(ctx);
  const Token *probe_kw = h.keyword;
  auto &points = h.points;
  BlockStmt *body = h.body;
  BlockStmt *epilogue = _attr(ctx).value_or(nullptr);
  if (epilogue && (!h.alias_op || h.alias_op->text != "="))
    throw ParseError{h.keyword,
                     "only an alias defined with '=' may have a second (epilogue) block"};
  if (h.alias_op) {
    auto *a = st.make<ProbeAliasDecl>(probe_kw);
    a->names = points;
    a->epilogue = h.alias_op->text == "+=";
    a->targets = h.targets;
    a->body = body;
    a->epilogue_body = epilogue;
    a->file = &st.src;
    st.file->aliases.push_back(a);
    st.file->decls.push_back(a);
  } else {
    auto *p = st.make<ProbeDecl>(probe_kw);
    p->points = points;
    p->body = body;
    st.file->probes.push_back(p);
    st.file->decls.push_back(p);
  }
};

Type type_of(const Token *t) { return t->text == "long" ? Type::Long : Type::String; }

const auto function_start = [](auto &ctx) {
  ParseState &st = state(ctx);
  const Token *name = _attr(ctx);
  auto *f = st.make<FunctionDecl>(st.private_kw ? st.private_kw : name - 1);
  f->name = name->text;
  f->is_private = st.private_kw != nullptr;
  f->file = &st.src;
  st.in_function = true;
  _val(ctx) = f;
};
const auto function_type = [](auto &ctx) {
  _val(ctx)->return_type = type_of(_attr(ctx));
  _val(ctx)->declared_type = true;
};
const auto function_param = [](auto &ctx) {
  const Token *name = at_c<0>(_attr(ctx));
  // As SystemTap 4.8 (pass 1): a parameter name may appear once.
  for (const VarDecl *earlier : _val(ctx)->params)
    if (earlier->name == name->text)
      throw ParseError{name, "parameter '" + name->text + "' is declared twice"};
  auto *v = state(ctx).template make<VarDecl>(name);
  v->name = name->text;
  if (auto &t = at_c<1>(_attr(ctx))) {
    v->type = type_of(*t);
    v->declared_type = true;
  }
  _val(ctx)->params.push_back(v);
};
const auto function_priority = [](auto &ctx) {
  const Token *n = at_c<1>(_attr(ctx));
  _val(ctx)->priority = at_c<0>(_attr(ctx)) ? -n->number : n->number;
};
const auto function_block = [](auto &ctx) { _val(ctx)->body = _attr(ctx); };
const auto function_embedded = [](auto &ctx) {
  const Token *t = _attr(ctx);
  check_embedded(state(ctx), t);
  auto *e = state(ctx).template make<EmbeddedStmt>(t);
  e->code = t->text;
  _val(ctx)->body = e;
};
const auto function_done = [](auto &ctx) {
  ParseState &st = state(ctx);
  st.in_function = false;
  st.file->functions.push_back(_attr(ctx));
  st.file->decls.push_back(_attr(ctx));
};

const auto global_start = [](auto &ctx) {
  ParseState &st = state(ctx);
  const Token *name = _attr(ctx);
  // As SystemTap 4.8 (pass 1): a global is declared once per file, and
  // `private` cannot be added to (or dropped from) it by a second one.
  for (const GlobalDecl *earlier : st.file->globals)
    if (earlier->name == name->text)
      throw ParseError{name, earlier->is_private == (st.private_kw != nullptr)
                                 ? "global '" + name->text + "' is declared twice"
                                 : "global '" + name->text +
                                       "' is declared both private and not private"};
  auto *g = st.make<GlobalDecl>(name);
  g->name = name->text;
  g->is_private = st.private_kw != nullptr;
  g->file = &st.src;
  _val(ctx) = g;
};
const auto global_wrap = [](auto &ctx) { _val(ctx)->wrap = _val(ctx)->array = true; };
const auto global_array = [](auto &ctx) { _val(ctx)->array = true; };
const auto global_size = [](auto &ctx) {
  const Token *t = _attr(ctx);
  auto *n = state(ctx).template make<NumberLit>(t);
  n->value = t->number;
  n->spelling = t->text;
  if (t->number <= 0)
    throw ParseError{t, "array size must be positive"};
  _val(ctx)->size = n;
};
// As SystemTap 4.8 (pass 1): arrays start empty; only a scalar has an
// initial value.
const auto global_init_op = [](auto &ctx) {
  if (_val(ctx)->array)
    throw ParseError{_attr(ctx), "only a scalar global can have an initializer"};
};
const auto global_init = [](auto &ctx) { _val(ctx)->init = _attr(ctx); };
const auto global_done = [](auto &ctx) {
  ParseState &st = state(ctx);
  st.file->globals.push_back(_attr(ctx));
  st.file->decls.push_back(_attr(ctx));
};

const auto embedded_decl = [](auto &ctx) {
  ParseState &st = state(ctx);
  const Token *t = _attr(ctx);
  check_embedded(st, t);
  if (st.private_kw)
    throw ParseError{st.private_kw, "embedded code cannot be private"};
  auto *e = st.make<EmbeddedDecl>(t);
  e->code = t->text;
  st.file->embeds.push_back(e);
  st.file->decls.push_back(e);
};

// ---------------------------------------------------------------- tokens

const auto type_tok = TokenParser{{}, TokKind::Ident, {"long", "string"}, "'long' or 'string'"};
const auto number_tok = any_token(TokKind::Number, "number");
const auto embedded_tok = any_token(TokKind::Embedded, "embedded code");
const auto minus_tok = ops("'-'", "-");
const auto mark_tok = ops("'?' or '!'", "?", "!");
const auto alias_tok = ops("'=' or '+='", "=", "+=");
const auto init_tok = ops("'='", "=");

// ---------------------------------------------------------------- rules

x3::rule<class literal_id, Expr *> const literal = "number or string literal";
x3::rule<class pp_element_id, Expansion> const pp_element = "probe point component";
x3::rule<class pp_seq_id, Expansion> const pp_seq = "probe point";
x3::rule<class pp_marked_id, Expansion> const pp_marked = "probe point";
x3::rule<class probe_point_id, std::vector<ProbePoint *>> const probe_point_rule = "probe point";
x3::rule<class pp_list_id, std::vector<ProbePoint *>> const pp_list = "probe point";
x3::rule<class function_id, FunctionDecl *> const function_decl = "function name";
x3::rule<class probe_id, ProbeHeader> const probe_def = "'probe'";
x3::rule<class global_var_id, GlobalDecl *> const global_var = "global variable name";
x3::rule<class declaration_id> const declaration = "'probe', 'function' or 'global'";

// literal = ['-'] number | string {string}
const auto literal_def = (-minus_tok >> number_tok)[literal_number] | string_lit[literal_string];

// pp_element = functor ['(' literal ')'] | '{' pp_marked {',' pp_marked} '}'
const auto pp_element_def = (functor >> -(p("(") > literal > p(")")))[component] |
                            nested[p("{") > pp_marked[unite] > *(p(",") > pp_marked[unite]) > p("}")];

// pp_seq = pp_element {'.' pp_element}
const auto pp_seq_def = pp_element[set_val] >> *(p(".") > pp_element[product]);

// pp_marked = pp_seq ['?' | '!'] ['if' '(' expression ')']
const auto pp_marked_def = pp_seq[set_val] >> -mark_tok[mark_all] >>
                           -(kwt("if") > p("(") > expression_part > p(")"))[condition_all];

// probe_point = pp_marked
const auto probe_point_rule_def = pp_marked[probe_point];

// pp_list = probe_point {',' probe_point}
const auto pp_list_def = probe_point_rule[append_points] > *(p(",") > probe_point_rule[append_points]);

// probe = 'probe' pp_list [('=' | '+=') pp_list] block
//       | 'probe' pp_list '=' pp_list block ',' block     (prologue, epilogue)
const auto probe_def_def = kwt("probe")[probe_start] > pp_list[probe_points] >
                           -(alias_tok > pp_list)[alias_targets] > block_part[probe_body] >
                           (-(p(",") >> block_part))[probe_decl];

// function = 'function' identifier [':' type] '(' [param {',' param}] ')'
//            [':' ['-'] number] (block | embedded)
// param = identifier [':' type]
const auto param = (identifier >> -(p(":") > type_tok))[function_param];
const auto function_decl_def =
    identifier[function_start] > -(p(":") > type_tok[function_type]) > p("(") >
    -(param > *(p(",") > param)) > p(")") >
    -(p(":") > -minus_tok > number_tok)[function_priority] >
    named(block_part[function_block] | embedded_tok[function_embedded], "'{'");

// global_var = identifier ['%'] ['[' number ']' ['%']] ['=' literal]
const auto global_var_def = identifier[global_start] > -p("%")[global_wrap] >
                            -(p("[")[global_array] > number_tok[global_size] > p("]") >
                              -p("%")[global_wrap]) > -(init_tok[global_init_op] > literal[global_init]);
const auto globals = global_var[global_done] > *(p(",") > global_var[global_done]) > -p(";");

// declaration = probe | ['private'] function | ['private'] 'global' globals
//             | 'private' globals | embedded
const auto function_def = kw("function") > function_decl[function_done];
const auto global_def = kw("global") > globals;
const auto declaration_def =
    probe_def | embedded_tok[embedded_decl] | function_def | global_def |
    (kwt("private")[set_private] >
     named(function_def | global_def | probe_def | globals, "'function' or 'global'"));

BOOST_SPIRIT_DEFINE(literal, pp_element, pp_seq, pp_marked, probe_point_rule, pp_list, probe_def,
                    function_decl,
                    global_var, declaration)

} // namespace

bool parse_declaration(TokIter &first, TokIter last, ParseState &st, ast::File &file) {
  st.file = &file;
  st.private_kw = nullptr;
  x3::unused_type unused;
  return run_grammar(declaration, first, last, st, unused);
}

} // namespace stap::parse
