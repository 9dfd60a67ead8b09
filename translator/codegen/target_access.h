// Pass 3 for target variables: `$var`, `$var->a->b[i]`, `&$var`, `$var$`,
// `$$parms`, `@cast(p, "struct file")->f_mode` compiled to C from the
// probe point's TargetScope (or the cast's type). Every read of target
// memory is a nofault read of runtime/stp_target.h: a bad pointer is a
// run-time error naming the identifier, never an oops.
#pragma once
#include "ast/ast.h"
#include "debuginfo/target_scope.h"
#include "util/diag.h"

#include <functional>
#include <string>

namespace stap::codegen {

// What the body writer lends: C for a script expression (an index), and
// a fresh MAXSTRINGLEN string temporary of the handler's frame.
struct TargetAccessHooks {
  std::function<std::string(ast::Expr *)> expr;
  std::function<std::string()> string_temp;
};

// C for `n` at a probe point whose variables `scope` describes; `n` was
// checked and typed by passes/target_vars.cpp against the same scope.
std::string target_expr_c(const debuginfo::TargetScope &scope, ast::TargetExpr &n,
                          const TargetAccessHooks &hooks, Diagnostics &diag);
// C for a typed @cast.
std::string cast_expr_c(ast::CastExpr &n, const TargetAccessHooks &hooks, Diagnostics &diag);

// C for a bound autocast (`p->f_path` where p holds a `struct file *`).
std::string autocast_expr_c(ast::AutocastExpr &n, const TargetAccessHooks &hooks,
                            Diagnostics &diag);

// A C statement storing `value` (C of an s64) where `target` (a $var,
// @cast or autocast chain that passes/target_writes.cpp allowed) is: a
// nofault store to memory, or the saved register.
std::string target_store_c(const debuginfo::TargetScope *scope, ast::Expr &target,
                           const std::string &value, const TargetAccessHooks &hooks,
                           Diagnostics &diag);

// Does a scope change the C of a body that uses target variables? Two
// points whose scopes have the same signature share one handler.
std::string scope_signature(const debuginfo::TargetScope &scope);

} // namespace stap::codegen
