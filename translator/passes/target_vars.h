// Pass 2 (after symbol resolution): target variables. Each `$var` of a
// probe body must be one its probe point provides: from the point's
// TargetScope (BTF or DWARF: `$file->f_path->dentry`, `$$parms`, `&$x`,
// `$x$`), or without debuginfo what the family names
// (probes::find_context_var: `$return` as a long at function returns).
// Each is checked against every point that runs the body and typed here;
// each @cast gets its type from the named module's debuginfo. Any `$var`
// in a function is an error. @defined and constant folding ran before, so
// the ones in branches that cannot run are gone.
#pragma once
#include "debuginfo/access_path.h"
#include "passes/program.h"
#include "util/diag.h"

namespace stap {

void resolve_target_vars(const probes::ResolveEnv &env, Program &program, Diagnostics &diag);

// What a checked chain ends at: the debuginfo types, the place (its C
// type is `end.type`) and how the script uses it; `is_list` for `$$vars`
// and friends (a string, no place). Autocast (passes/autocast.cpp) takes
// the types a pointer-valued chain carries from here.
struct TypedResult {
  std::shared_ptr<const debuginfo::TypeTable> types;
  debuginfo::Place end;
  debuginfo::Use use = debuginfo::Use::Scalar;
  bool is_list = false;
};
// The walk of `components` from `start` over `types`, checked and
// classified (`label` names the chain's start in messages): what $vars,
// @cast, @var and autocast chains share.
std::optional<TypedResult> typed_chain(std::shared_ptr<const debuginfo::TypeTable> types,
                                       const debuginfo::Place &start, const std::string &label,
                                       const std::vector<ast::TargetComponent> &components,
                                       bool addressof, SourceLoc loc, debuginfo::AccessError &err);
std::optional<TypedResult> target_result(const probes::ResolvedProbe &rp,
                                         const ast::TargetExpr &n, debuginfo::AccessError &err);
std::optional<TypedResult> cast_result(const probes::ResolveEnv &env, ast::CastExpr &n,
                                       debuginfo::AccessError &err);
ast::Type script_type(debuginfo::Use u);

// The script type of `n` at `rp`, or why it has none (for @defined too).
std::optional<ast::Type> target_type(const probes::ResolvedProbe &rp, const ast::TargetExpr &n,
                                     debuginfo::AccessError &err);
// The script type of @cast `n`, binding its debuginfo type; or why not.
std::optional<ast::Type> cast_type(const probes::ResolveEnv &env, ast::CastExpr &n,
                                   debuginfo::AccessError &err);

} // namespace stap
