// The statement grammar. Expressions come from expr_grammar.cpp through
// expression_part.
#include "parse/actions.h"

// GCC cannot see that boost::optional's storage is written before it is
// read in the foreach actions.
#pragma GCC diagnostic ignored "-Wmaybe-uninitialized"

namespace stap::parse {
namespace {

using namespace ast;

// ---------------------------------------------------------------- actions

template <typename T> struct Make {
  template <typename Ctx> void operator()(Ctx &ctx) const {
    _val(ctx) = state(ctx).template make<T>(_attr(ctx));
  }
};

template <typename T> T *val(auto &ctx) { return static_cast<T *>(_val(ctx)); }

const auto push_stmt = [](auto &ctx) { val<BlockStmt>(ctx)->stmts.push_back(_attr(ctx)); };

const auto expr_stmt = [](auto &ctx) {
  auto *s = state(ctx).template make<ExprStmt>(_attr(ctx)->loc);
  s->expr = _attr(ctx);
  _val(ctx) = s;
};

const auto if_stmt = [](auto &ctx) {
  auto *s = state(ctx).template make<IfStmt>(at_c<0>(_attr(ctx)));
  s->cond = at_c<1>(_attr(ctx));
  s->then_stmt = at_c<2>(_attr(ctx));
  s->else_stmt = at_c<3>(_attr(ctx)).value_or(nullptr);
  _val(ctx) = s;
};

const auto while_stmt = [](auto &ctx) {
  auto *s = state(ctx).template make<WhileStmt>(at_c<0>(_attr(ctx)));
  s->cond = at_c<1>(_attr(ctx));
  s->body = at_c<2>(_attr(ctx));
  _val(ctx) = s;
};

const auto for_stmt = [](auto &ctx) {
  auto *s = state(ctx).template make<ForStmt>(at_c<0>(_attr(ctx)));
  s->init = at_c<1>(_attr(ctx)).value_or(nullptr);
  s->cond = at_c<2>(_attr(ctx)).value_or(nullptr);
  s->step = at_c<3>(_attr(ctx)).value_or(nullptr);
  s->body = at_c<4>(_attr(ctx));
  _val(ctx) = s;
};

const auto return_value = [](auto &ctx) { val<ReturnStmt>(ctx)->value = _attr(ctx); };
// `return` only in a function's body (4.8's words).
const auto return_start = [](auto &ctx) {
  if (!state(ctx).in_function)
    throw ParseError{_attr(ctx), "found 'return' not in function context"};
  Make<ReturnStmt>{}(ctx);
};
const auto delete_target = [](auto &ctx) { val<DeleteStmt>(ctx)->target = _attr(ctx); };

const auto try_stmt = [](auto &ctx) {
  auto *s = state(ctx).template make<TryStmt>(at_c<0>(_attr(ctx)));
  s->try_block = at_c<1>(_attr(ctx));
  if (auto &var = at_c<2>(_attr(ctx))) {
    auto *v = state(ctx).template make<SymbolExpr>(*var);
    v->name = (*var)->text;
    s->catch_var = v;
  }
  s->catch_block = at_c<3>(_attr(ctx));
  _val(ctx) = s;
};

SymbolExpr *variable(ParseState &st, const Token *t) {
  auto *v = st.make<SymbolExpr>(t);
  v->name = t->text;
  return v;
}

// Records a sort marker (`+`/`-` token) on `column` (0 = the values).
void set_sort(ForeachStmt *f, const Token *sign, int column) {
  if (f->sort_dir)
    throw ParseError{sign, "only one sort order may be given in foreach"};
  f->sort_dir = sign->text == "+" ? 1 : -1;
  f->sort_column = column;
}

const auto foreach_value = [](auto &ctx) {
  auto *f = val<ForeachStmt>(ctx);
  f->value = variable(state(ctx), at_c<0>(_attr(ctx)));
  if (auto &sign = at_c<1>(_attr(ctx)))
    set_sort(f, *sign, 0);
};

const auto foreach_key = [](auto &ctx) {
  auto *f = val<ForeachStmt>(ctx);
  f->keys.push_back(variable(state(ctx), at_c<0>(_attr(ctx))));
  if (auto &sign = at_c<1>(_attr(ctx)))
    set_sort(f, *sign, static_cast<int>(f->keys.size()));
};

const auto foreach_array = [](auto &ctx) {
  const Token *t = _attr(ctx);
  val<ForeachStmt>(ctx)->array = variable(state(ctx), t);
};
const auto foreach_hist = [](auto &ctx) { val<ForeachStmt>(ctx)->array = _attr(ctx); };
const auto foreach_slice = [](auto &ctx) { val<ForeachStmt>(ctx)->slice.push_back(_attr(ctx)); };
const auto foreach_slice_any = [](auto &ctx) {
  val<ForeachStmt>(ctx)->slice.push_back(nullptr);
};

const auto foreach_sort = [](auto &ctx) {
  auto *f = val<ForeachStmt>(ctx);
  if (auto &aggr = at_c<0>(_attr(ctx)))
    f->sort_aggr = ast::stat_op(std::string_view((*aggr)->text).substr(1));
  set_sort(f, at_c<1>(_attr(ctx)), 0);
};

const auto foreach_limit = [](auto &ctx) { val<ForeachStmt>(ctx)->limit = _attr(ctx); };
const auto foreach_body = [](auto &ctx) { val<ForeachStmt>(ctx)->body = _attr(ctx); };

// ---------------------------------------------------------------- tokens

const auto &expr = expression_part;
const auto sort_tok = ops("'+' or '-'", "+", "-");
const auto stat_tok = at("statistic extractor", "@count", "@sum", "@min", "@max", "@avg",
                         "@variance");
const auto hist_tok = LiteralParser{{}, TokKind::AtIdent, "@hist_log", "histogram"};
const auto hist_linear_tok = LiteralParser{{}, TokKind::AtIdent, "@hist_linear", "histogram"};
const auto end_tok = LiteralParser{{}, TokKind::End, "", "end of input"};
const auto variable_tok = identifier;

// ---------------------------------------------------------------- rules

x3::rule<class statement_id, Stmt *> const statement = "statement";
x3::rule<class block_id, BlockStmt *> const block = "'{'";
x3::rule<class simple_id, Stmt *> const simple_statement = "statement";
x3::rule<class foreach_id, Stmt *> const foreach_stmt = "statement";

// block = '{' {statement} '}'
const auto block_def = pt("{")[Make<BlockStmt>{}] >
                       *((!(p("}") | end_tok)) > statement[push_stmt]) > p("}");

// statement = block | ';' | if | while | for | foreach | try | simple [';']
// if = 'if' '(' expression ')' statement ['else' statement]
// while = 'while' '(' expression ')' statement
// for = 'for' '(' [expression] ';' [expression] ';' [expression] ')' statement
// try = 'try' block 'catch' ['(' identifier ')'] block
const auto statement_def = nested[
    block[set_val] | pt(";")[Make<NullStmt>{}] |
    (kwt("if") > p("(") > expr > p(")") > statement > -(kw("else") > statement))[if_stmt] |
    (kwt("while") > p("(") > expr > p(")") > statement)[while_stmt] |
    (kwt("for") > p("(") > -expr > p(";") > -expr > p(";") > -expr > p(")") >
     statement)[for_stmt] |
    foreach_stmt[set_val] |
    (kwt("try") > block > kw("catch") > -(p("(") > variable_tok > p(")")) > block)[try_stmt] |
    simple_statement[set_val] >> -p(";")];

// simple = 'break' | 'continue' | 'next' | 'return' [expression]
//        | 'delete' expression | expression
const auto simple_statement_def =
    kwt("break")[Make<BreakStmt>{}] | kwt("continue")[Make<ContinueStmt>{}] |
    kwt("next")[Make<NextStmt>{}] |
    kwt("return")[return_start] >> -(!(p(";") | p("}")) >> expr[return_value]) |
    (kwt("delete")[Make<DeleteStmt>{}] > expr[delete_target]) | expr[expr_stmt];

// foreach_keys = identifier [sort] | '[' identifier [sort] {',' identifier [sort]} ']'
const auto foreach_keys = named(
    (variable_tok >> -sort_tok)[foreach_key] |
    (p("[") > (variable_tok >> -sort_tok)[foreach_key] >
     *(p(",") > (variable_tok >> -sort_tok)[foreach_key]) > p("]")), "foreach key variable");

// foreach_array = identifier ['[' slice_elem {',' slice_elem} ']'] | hist_op
// slice_elem = '*' | expression
const auto slice_elem = p("*")[foreach_slice_any] | expr[foreach_slice];
const auto foreach_array_ref = named(
    variable_tok[foreach_array] >> -(p("[") > slice_elem > *(p(",") > slice_elem) > p("]")) |
    (&(hist_tok | hist_linear_tok) > expr[foreach_hist]), "array name");

// foreach = 'foreach' '(' [identifier [sort] '='] foreach_keys 'in' foreach_array
//           [[stat_op] sort] ['limit' expression] ')' statement
// sort = '+' | '-'
const auto foreach_stmt_def =
    kwt("foreach")[Make<ForeachStmt>{}] > p("(") >
    -(variable_tok >> -sort_tok >> p("="))[foreach_value] > foreach_keys > kw("in") >
    foreach_array_ref > -(-stat_tok >> sort_tok)[foreach_sort] >
    -(kw("limit") > expr[foreach_limit]) > p(")") > statement[foreach_body];

BOOST_SPIRIT_DEFINE(statement, block, simple_statement, foreach_stmt)

} // namespace

bool parse_statement(TokIter &first, TokIter last, ParseState &st, ast::Stmt *&out) {
  return run_grammar(statement, first, last, st, out);
}

bool parse_block(TokIter &first, TokIter last, ParseState &st, ast::BlockStmt *&out) {
  return run_grammar(block, first, last, st, out);
}

} // namespace stap::parse
