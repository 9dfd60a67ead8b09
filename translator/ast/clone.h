// Deep copies of statements and expressions, for code that appears in more
// than one probe: an alias's prologue or epilogue, and a probe body that
// alias expansion combines with different alias bodies. Later passes
// annotate nodes in place (bound locals, types), so no two probes may share
// a node.
#pragma once
#include "ast/ast.h"

namespace stap::ast {

Stmt *clone_stmt(Arena &arena, Stmt *s);
Expr *clone_expr(Arena &arena, Expr *e);

} // namespace stap::ast
