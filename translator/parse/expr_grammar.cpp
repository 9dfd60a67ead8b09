// The expression grammar, loosest binding first. Each rule builds its node
// in semantic actions: the first operand becomes the rule's value and each
// operator that follows wraps it (left associativity without left
// recursion).
#include "parse/actions.h"

namespace stap::parse {
namespace {

using namespace ast;

// ---------------------------------------------------------------- actions

bool is_lvalue(const Expr *e) {
  return dynamic_cast<const SymbolExpr *>(e) || dynamic_cast<const IndexExpr *>(e) ||
         dynamic_cast<const TargetExpr *>(e) || dynamic_cast<const CastExpr *>(e) ||
         dynamic_cast<const AutocastExpr *>(e);
}

// The `->`/`[i]`/`$` chain of a target-like value, or nullptr.
std::vector<TargetComponent> *components_of(Expr *e) {
  if (auto *t = dynamic_cast<TargetExpr *>(e)) return &t->components;
  if (auto *c = dynamic_cast<CastExpr *>(e)) return &c->components;
  if (auto *a = dynamic_cast<AutocastExpr *>(e)) return &a->components;
  return nullptr;
}

bool ends_in_pretty(const std::vector<TargetComponent> &cs) {
  return !cs.empty() && cs.back().kind == TargetComponent::Pretty;
}

// The operator a token spells; the grammar passes only operator tokens, so
// none is a translator bug, reported at the token rather than crashing.
template <typename Op> Op operator_of(const Token *t, std::optional<Op> op) {
  if (!op)
    throw ParseError{t, "internal error: '" + t->text + "' is no operator here"};
  return *op;
}

const auto binary = [](auto &ctx) {
  const Token *op = at_c<0>(_attr(ctx));
  auto *b = state(ctx).template make<BinaryExpr>(op);
  b->op = operator_of(op, ast::binary_op(op->text));
  b->left = _val(ctx);
  b->right = at_c<1>(_attr(ctx));
  _val(ctx) = b;
};

const auto regex_match = [](auto &ctx) {
  const Token *op = at_c<0>(_attr(ctx));
  const StringValue &re = at_c<1>(_attr(ctx));
  auto *lit = state(ctx).template make<StringLit>(re.first);
  lit->value = re.value;
  auto *b = state(ctx).template make<BinaryExpr>(op);
  b->op = operator_of(op, ast::binary_op(op->text));
  b->left = _val(ctx);
  b->right = lit;
  _val(ctx) = b;
};

const auto assignment = [](auto &ctx) {
  const Token *op = at_c<0>(_attr(ctx));
  if (!is_lvalue(_val(ctx)))
    throw ParseError{op, "left operand of '" + op->text + "' is not assignable"};
  auto *a = state(ctx).template make<AssignExpr>(_val(ctx)->loc);
  a->op = operator_of(op, ast::assign_op(op->text));
  a->target = _val(ctx);
  a->value = at_c<1>(_attr(ctx));
  _val(ctx) = a;
};

const auto ternary = [](auto &ctx) {
  auto *t = state(ctx).template make<TernaryExpr>(_val(ctx)->loc);
  t->cond = _val(ctx);
  t->then_expr = at_c<0>(_attr(ctx));
  t->else_expr = at_c<1>(_attr(ctx));
  _val(ctx) = t;
};

const auto unary = [](auto &ctx) {
  const Token *op = at_c<0>(_attr(ctx));
  auto *u = state(ctx).template make<UnaryExpr>(op);
  u->op = operator_of(op, ast::unary_op(op->text));
  u->operand = at_c<1>(_attr(ctx));
  _val(ctx) = u;
};

const auto address_of = [](auto &ctx) {
  Expr *e = at_c<1>(_attr(ctx));
  if (auto *t = dynamic_cast<TargetExpr *>(e)) {
    t->addressof = true;
  } else if (auto *c = dynamic_cast<CastExpr *>(e)) {
    c->addressof = true;
  } else if (auto *a = dynamic_cast<AutocastExpr *>(e)) {
    a->addressof = true;
  } else if (at_c<0>(_attr(ctx))[1].is_op("(")) {
    // `&(cond ? @cast(...)->a : $b)`: the address of a parenthesized
    // target value (tapset macros write this).
    auto *wrap = state(ctx).template make<AutocastExpr>(at_c<0>(_attr(ctx)));
    wrap->operand = e;
    wrap->addressof = true;
    e = wrap;
  } else {
    throw ParseError{at_c<0>(_attr(ctx)),
                     "'&' applies only to a $target, @cast, @var or '->' member expression"};
  }
  _val(ctx) = e;
};

template <bool Prefix> struct IncDec {
  template <typename Ctx> void operator()(Ctx &ctx) const {
    const Token *op;
    Expr *operand;
    if constexpr (Prefix) {
      op = at_c<0>(_attr(ctx));
      operand = at_c<1>(_attr(ctx));
    } else {
      op = _attr(ctx);
      operand = _val(ctx);
    }
    if (!is_lvalue(operand))
      throw ParseError{op, "operand of '" + op->text + "' is not assignable"};
    auto *n = state(ctx).template make<IncDecExpr>(Prefix ? op->loc : operand->loc);
    n->op = operator_of(op, ast::incdec_op(op->text));
    n->prefix = Prefix;
    n->operand = operand;
    _val(ctx) = n;
  }
};

const auto number = [](auto &ctx) {
  const Token *t = _attr(ctx);
  auto *n = state(ctx).template make<NumberLit>(t);
  n->value = t->number;
  n->spelling = t->text;
  _val(ctx) = n;
};

const auto string = [](auto &ctx) {
  auto *s = state(ctx).template make<StringLit>(_attr(ctx).first);
  s->value = _attr(ctx).value;
  _val(ctx) = s;
};

const auto embedded = [](auto &ctx) {
  const Token *t = _attr(ctx);
  check_embedded(state(ctx), t, /*expression=*/true);
  auto *e = state(ctx).template make<EmbeddedExpr>(t);
  e->code = t->text;
  _val(ctx) = e;
};

const auto target = [](auto &ctx) {
  const Token *t = _attr(ctx);
  auto *e = state(ctx).template make<TargetExpr>(t);
  e->name = t->text;
  std::string suffix = split_pretty_suffix(e->name);
  if (!suffix.empty())
    e->components.push_back({TargetComponent::Pretty, suffix, nullptr, t->loc});
  _val(ctx) = e;
};

// `->name` (name may be a keyword: `->next`), `->name$`.
const auto member = [](auto &ctx) {
  const Token *t = _attr(ctx);
  std::vector<TargetComponent> *cs = components_of(_val(ctx));
  if (!cs) {
    auto *a = state(ctx).template make<AutocastExpr>(_val(ctx)->loc);
    a->operand = _val(ctx);
    _val(ctx) = a;
    cs = &a->components;
  }
  if (ends_in_pretty(*cs))
    throw ParseError{t - 1, "nothing may follow a '$' or '$$' suffix"};
  std::string name = t->text;
  std::string suffix = split_pretty_suffix(name);
  if (name.empty() || name[0] == '$')
    throw ParseError{t, "expected a member name after '->'"};
  cs->push_back({TargetComponent::Member, name, nullptr, t->loc});
  if (!suffix.empty())
    cs->push_back({TargetComponent::Pretty, suffix, nullptr, t->loc});
};

// `[expr]` after a target value; anywhere else `[` is not ours.
const auto component_index = [](auto &ctx) {
  std::vector<TargetComponent> *cs = components_of(_val(ctx));
  if (!cs || ends_in_pretty(*cs)) {
    _pass(ctx) = false;
    return;
  }
  Expr *index = _attr(ctx);
  cs->push_back({TargetComponent::Index, "", index, index->loc});
};

// `(expr)[i]`: after parentheses any value may be indexed as a target.
const auto paren_index = [](auto &ctx) {
  std::vector<TargetComponent> *cs = components_of(_val(ctx));
  if (cs && ends_in_pretty(*cs)) {
    _pass(ctx) = false;
    return;
  }
  if (!cs) {
    auto *a = state(ctx).template make<AutocastExpr>(_val(ctx)->loc);
    a->operand = _val(ctx);
    _val(ctx) = a;
    cs = &a->components;
  }
  Expr *index = _attr(ctx);
  cs->push_back({TargetComponent::Index, "", index, index->loc});
};

// A lone `$` / `$$` written right after a target value.
const auto pretty = [](auto &ctx) {
  const Token *t = _attr(ctx);
  std::vector<TargetComponent> *cs = components_of(_val(ctx));
  if (!cs || ends_in_pretty(*cs) || t->space_before ||
      t->text.find_first_not_of('$') != std::string::npos || t->text.size() > 2) {
    _pass(ctx) = false;
    return;
  }
  cs->push_back({TargetComponent::Pretty, t->text, nullptr, t->loc});
};

const auto symbol = [](auto &ctx) {
  const Token *t = _attr(ctx);
  auto *s = state(ctx).template make<SymbolExpr>(t);
  s->name = t->text;
  _val(ctx) = s;
};

const auto to_call = [](auto &ctx) {
  auto *sym = static_cast<SymbolExpr *>(_val(ctx));
  auto *c = state(ctx).template make<CallExpr>(sym->loc);
  c->name = sym->name;
  _val(ctx) = c;
};
const auto push_arg = [](auto &ctx) {
  static_cast<CallExpr *>(_val(ctx))->args.push_back(_attr(ctx));
};

const auto to_index = [](auto &ctx) {
  auto *ix = state(ctx).template make<IndexExpr>(_val(ctx)->loc);
  ix->base = _val(ctx);
  _val(ctx) = ix;
};
const auto push_index = [](auto &ctx) {
  static_cast<IndexExpr *>(_val(ctx))->indexes.push_back(_attr(ctx));
};
const auto wildcard = [](auto &ctx) { _val(ctx) = nullptr; };

const auto in_single = [](auto &ctx) {
  auto *n = state(ctx).template make<InExpr>(_val(ctx)->loc);
  n->keys.push_back(_val(ctx));
  n->array = _attr(ctx);
  _val(ctx) = n;
};
const auto in_start = [](auto &ctx) {
  _val(ctx) = state(ctx).template make<InExpr>(_attr(ctx));
};
const auto in_key = [](auto &ctx) {
  static_cast<InExpr *>(_val(ctx))->keys.push_back(_attr(ctx));
};
const auto in_array = [](auto &ctx) {
  static_cast<InExpr *>(_val(ctx))->array = _attr(ctx);
};

const auto cast_op = [](auto &ctx) {
  auto *c = state(ctx).template make<CastExpr>(at_c<0>(_attr(ctx)));
  c->kind = CastExpr::Cast;
  c->operand = at_c<1>(_attr(ctx));
  c->type_or_var = at_c<2>(_attr(ctx)).value;
  if (auto &m = at_c<3>(_attr(ctx)))
    c->module = m->value;
  _val(ctx) = c;
};

const auto var_op = [](auto &ctx) {
  auto *c = state(ctx).template make<CastExpr>(at_c<0>(_attr(ctx)));
  c->kind = CastExpr::Var;
  c->type_or_var = at_c<1>(_attr(ctx)).value;
  if (auto &m = at_c<2>(_attr(ctx)))
    c->module = m->value;
  _val(ctx) = c;
};

const auto stat_op = [](auto &ctx) {
  const Token *t = at_c<0>(_attr(ctx));
  auto *s = state(ctx).template make<StatExpr>(t);
  s->op = operator_of(t, ast::stat_op(std::string_view(t->text).substr(1)));
  s->stat = at_c<1>(_attr(ctx));
  _val(ctx) = s;
};

const auto variance_op = [](auto &ctx) {
  auto *s = state(ctx).template make<StatExpr>(at_c<0>(_attr(ctx)));
  s->op = ast::StatOp::Variance;
  s->stat = at_c<1>(_attr(ctx));
  s->param = at_c<2>(_attr(ctx)).value_or(nullptr);
  _val(ctx) = s;
};

const auto hist_log = [](auto &ctx) {
  auto *h = state(ctx).template make<HistExpr>(at_c<0>(_attr(ctx)));
  h->kind = HistExpr::Log;
  h->stat = at_c<1>(_attr(ctx));
  _val(ctx) = h;
};

const auto hist_linear = [](auto &ctx) {
  auto *h = state(ctx).template make<HistExpr>(at_c<0>(_attr(ctx)));
  h->kind = HistExpr::Linear;
  h->stat = at_c<1>(_attr(ctx));
  h->params = {at_c<2>(_attr(ctx)), at_c<3>(_attr(ctx)), at_c<4>(_attr(ctx))};
  _val(ctx) = h;
};

const auto hist_bucket = [](auto &ctx) {
  auto *ix = state(ctx).template make<IndexExpr>(_val(ctx)->loc);
  ix->base = _val(ctx);
  ix->indexes.push_back(_attr(ctx));
  _val(ctx) = ix;
};

const auto at_op = [](auto &ctx) {
  const Token *t = _attr(ctx);
  // @const names a C constant: embedded C, so tapsets and guru mode only
  // (4.8's parse error).
  if (t->text == "@const" && !state(ctx).embedded_allowed)
    throw ParseError{t, "using @const operator not permitted; need stap -g"};
  auto *a = state(ctx).template make<AtOpExpr>(t);
  a->name = t->text.substr(1);
  _val(ctx) = a;
};
const auto at_op_arg = [](auto &ctx) {
  static_cast<AtOpExpr *>(_val(ctx))->args.push_back(_attr(ctx));
};

// After the preprocessor, an @-word that is no operator is an unknown macro.
const auto unknown_at = [](auto &ctx) {
  const Token *t = _attr(ctx);
  throw ParseError{t, "unknown macro or @-operator '" + t->text + "'"};
};

// ---------------------------------------------------------------- tokens

const auto assign_op = ops("assignment operator", "=", "+=", "-=", "*=", "/=", "%=",
                           "<<=", ">>=", "&=", "^=", "|=", ".=", "<<<");
const auto comparison_op = ops("comparison operator", "<", ">", "<=", ">=", "==", "!=");
const auto regex_op = ops("regex operator", "=~", "!~");
const auto shift_op = ops("shift operator", "<<", ">>", ">>>");
const auto additive_op = ops("'+' or '-'", "+", "-");
const auto multiplicative_op = ops("'*', '/' or '%'", "*", "/", "%");
const auto unary_op = ops("unary operator", "+", "-", "!", "~");
const auto crement_op = ops("'++' or '--'", "++", "--");
const auto number_tok = any_token(TokKind::Number, "number");
const auto embedded_tok = any_token(TokKind::Embedded, "embedded code");
const auto target_tok = TokenParser{{}, TokKind::Ident, {}, "$target variable", '$'};
const auto member_tok = any_token(TokKind::Ident, "member name");
const auto at_tok = any_token(TokKind::AtIdent, "@-operator");
const auto stat_tok = at("statistic extractor", "@count", "@sum", "@min", "@max", "@avg");
const auto at_op_tok = at("@-operator", "@defined", "@entry", "@probewrite", "@const",
                          "@kregister", "@uregister", "@kderef", "@uderef", "@perf",
                          "@errno");
const auto string_tok = string_lit;

// ---------------------------------------------------------------- rules

x3::rule<class expression_id, Expr *> const expression = "expression";
x3::rule<class ternary_id, Expr *> const ternary_expr = "expression";
x3::rule<class logical_or_id, Expr *> const logical_or = "expression";
x3::rule<class logical_and_id, Expr *> const logical_and = "expression";
x3::rule<class bit_or_id, Expr *> const bit_or = "expression";
x3::rule<class bit_xor_id, Expr *> const bit_xor = "expression";
x3::rule<class bit_and_id, Expr *> const bit_and = "expression";
x3::rule<class array_in_id, Expr *> const array_in = "expression";
x3::rule<class comparison_id, Expr *> const comparison = "expression";
x3::rule<class shift_id, Expr *> const shift = "expression";
x3::rule<class concat_id, Expr *> const concat = "expression";
x3::rule<class additive_id, Expr *> const additive = "expression";
x3::rule<class multiplicative_id, Expr *> const multiplicative = "expression";
x3::rule<class unary_id, Expr *> const unary_expr = "expression";
x3::rule<class crement_id, Expr *> const crement = "expression";
x3::rule<class value_id, Expr *> const value = "expression";
x3::rule<class primary_id, Expr *> const primary = "expression";
x3::rule<class index_elem_id, Expr *> const index_elem = "index expression or '*'";
x3::rule<class ident_expr_id, Expr *> const ident_expr = "identifier";
x3::rule<class at_expr_id, Expr *> const at_expr = "@-operator";
x3::rule<class array_ref_id, Expr *> const array_ref = "array name";
x3::rule<class in_list_id, Expr *> const in_list = "'['";
const auto &expr = expression;

// expression = ternary [assign_op expression]
//            | ternary ['<<<' expression]
const auto expression_def =
    ternary_expr[set_val] >> -(assign_op > expression)[assignment];

// ternary = logical_or ['?' expression ':' expression]
const auto ternary_expr_def =
    logical_or[set_val] >> -(p("?") > expression > p(":") > expression)[ternary];

// logical_or = logical_and {'||' logical_and}
const auto logical_or_def =
    logical_and[set_val] >> *(ops("'||'", "||") > logical_and)[binary];
// logical_and = bit_or {'&&' bit_or}
const auto logical_and_def = bit_or[set_val] >> *(ops("'&&'", "&&") > bit_or)[binary];
// bit_or = bit_xor {'|' bit_xor}
const auto bit_or_def = bit_xor[set_val] >> *(ops("'|'", "|") > bit_xor)[binary];
// bit_xor = bit_and {'^' bit_and}
const auto bit_xor_def = bit_and[set_val] >> *(ops("'^'", "^") > bit_and)[binary];
// bit_and = array_in {'&' array_in}
const auto bit_and_def = array_in[set_val] >> *(ops("'&'", "&") > array_in)[binary];

// array_in = '[' index_elem {',' index_elem} ']' 'in' array_ref
//          | comparison ['in' array_ref]
const auto array_in_def =
    in_list[set_val] | comparison[set_val] >> -(kw("in") > array_ref)[in_single];
const auto in_list_def = pt("[")[in_start] > index_elem[in_key] > *(p(",") > index_elem[in_key]) > p("]") >
                         kw("in") > array_ref[in_array];

// array_ref = identifier | hist_op
const auto array_ref_def = identifier[symbol] | at_expr[set_val];

// comparison = shift {comparison_op shift | ('=~' | '!~') string}
const auto comparison_def = shift[set_val] >> *((comparison_op > shift)[binary] |
                                                (regex_op > string_tok)[regex_match]);
// shift = concat {('<<' | '>>' | '>>>') concat}
const auto shift_def = concat[set_val] >> *(shift_op > concat)[binary];
// concat = additive {'.' additive}
const auto concat_def = additive[set_val] >> *(ops("'.'", ".") > additive)[binary];
// additive = multiplicative {('+' | '-') multiplicative}
const auto additive_def = multiplicative[set_val] >> *(additive_op > multiplicative)[binary];
// multiplicative = unary {('*' | '/' | '%') unary}
const auto multiplicative_def = unary_expr[set_val] >> *(multiplicative_op > unary_expr)[binary];

// unary = ('+' | '-' | '!' | '~') unary | '&' value | crement
//   A unary operator before '(' costs no nesting level of its own (the
//   parenthesis costs one): -p1 prints `!!x` as `!(!x)`, and what parses
//   must parse again once printed.
const auto unary_expr_def = (unary_op >> &p("(") > unary_expr)[unary] |
                            nested[(unary_op > unary_expr)[unary] |
                                   (pt("&") > value)[address_of] | crement[set_val]];

// crement = ('++' | '--') value | value ['++' | '--']
const auto crement_def =
    (crement_op > value)[IncDec<true>{}] | value[set_val] >> -crement_op[IncDec<false>{}];

// value = '(' expression ')' {'->' member | '[' expression ']' | '$' | '$$'}
//       | primary {'->' member | '[' expression ']' | '$' | '$$'}
//   (after a primary, `[i]` and `$` only follow a $target, @cast, @var or '->')
const auto member_component = (p("->") > member_tok)[member];
const auto pretty_component = target_tok[pretty];
const auto value_def =
    (p("(") > expr > p(")"))[set_val] >>
        *(member_component | (p("[") > expr > p("]"))[paren_index] | pretty_component) |
    primary[set_val] >> *(member_component | (p("[") >> expr > p("]"))[component_index] |
                          pretty_component);

// primary = number | string {string} | embedded | $target | at_expr | ident_expr
const auto primary_def = number_tok[number] |
                         string_tok[string] | embedded_tok[embedded] | target_tok[target] |
                         at_expr[set_val] | ident_expr[set_val];

// ident_expr = identifier ['(' [expression {',' expression}] ')']
//            | identifier '[' index_elem {',' index_elem} ']'
const auto ident_expr_def =
    identifier[symbol] >>
    -((p("(")[to_call] > -(expr[push_arg] >> *(p(",") > expr[push_arg])) > p(")")) |
      (p("[")[to_index] > index_elem[push_index] > *(p(",") > index_elem[push_index]) > p("]")));

// index_elem = '*' | expression
const auto index_elem_def = p("*")[wildcard] | expr[set_val];

// at_expr = '@cast' '(' expression ',' string [',' string] ')'
//         | '@var' '(' string [',' string] ')'
//         | ('@count' | '@sum' | '@min' | '@max' | '@avg') '(' expression ')'
//         | '@variance' '(' expression [',' expression] ')'
//         | '@hist_log' '(' expression ')' ['[' expression ']']
//         | '@hist_linear' '(' expression ',' expression ',' expression ','
//           expression ')' ['[' expression ']']
//         | at_op ['(' [expression {',' expression}] ')']
const auto at_expr_def =
    (at("'@cast'", "@cast") > p("(") > expr > p(",") > string_tok > -(p(",") > string_tok) >
     p(")"))[cast_op] |
    (at("'@var'", "@var") > p("(") > string_tok > -(p(",") > string_tok) > p(")"))[var_op] |
    (stat_tok > p("(") > expr > p(")"))[stat_op] |
    (at("'@variance'", "@variance") > p("(") > expr > -(p(",") > expr) > p(")"))[variance_op] |
    ((at("'@hist_log'", "@hist_log") > p("(") > expr > p(")"))[hist_log] |
     (at("'@hist_linear'", "@hist_linear") > p("(") > expr > p(",") > expr > p(",") > expr > p(",") >
      expr > p(")"))[hist_linear]) >>
        -(p("[") > expr > p("]"))[hist_bucket] |
    at_op_tok[at_op] >> -(p("(") > -(expr[at_op_arg] >> *(p(",") > expr[at_op_arg])) > p(")")) |
    at_tok[unknown_at];

BOOST_SPIRIT_DEFINE(expression, ternary_expr, logical_or, logical_and, bit_or, bit_xor,
                    bit_and, array_in, in_list, array_ref, comparison, shift, concat,
                    additive, multiplicative, unary_expr, crement, value, primary,
                    ident_expr, index_elem, at_expr)

} // namespace

bool parse_expression(TokIter &first, TokIter last, ParseState &st, ast::Expr *&out) {
  return run_grammar(expression, first, last, st, out);
}

} // namespace stap::parse
