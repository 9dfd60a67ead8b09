// Pass 2b: `@entry(expr)` in function return probes. Each use becomes a
// global keyed by thread, set by a probe on the function's entry:
//
//   probe kernel.function("f").return { x = @entry(e) }
// is run as
//   global __entry_0
//   probe kernel.function("f").call { __entry_0[tid()] = e }
//   probe kernel.function("f").return { x = @entry(__entry_0[tid()]) }
//
// (the rewritten @entry just yields its argument). Keyed by thread, a
// function that recurses sees the innermost call's value.
#pragma once
#include "ast/ast.h"
#include "passes/program.h"
#include "util/diag.h"

namespace stap {

void resolve_entry_values(Program &program, ast::Arena &arena, Diagnostics &diag);

} // namespace stap
