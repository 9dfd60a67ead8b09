// Pass 2: `$value` of procfs probes (probes/procfs.cpp) is the file's data,
// a string that a read probe assigns and a write probe reads. It becomes
// calls of tapsets/procfs.stp: a read `_procfs_value_get()`, `$value = s`
// `_procfs_value_set(s)`, `$value .= s` `_procfs_value_append(s)`. Runs
// after resolve_probes (which says which probes are procfs ones) and
// fold_defined (`@defined($value)` is 1 there), before resolve_symbols
// binds the calls; the tapset file is loaded for any `$value`
// (passes/load_tapsets.cpp).
#pragma once
#include "ast/ast.h"
#include "passes/program.h"
#include "util/diag.h"

namespace stap {

// As in SystemTap 4.8: a write probe's `$value` is read-only, and a read
// probe's is assigned with `=` and `.=` only. `$value->x` and `&$value`
// are errors too (4.8 accepts and drops them).
void rewrite_procfs_values(Program &program, ast::Arena &arena, Diagnostics &diag);

} // namespace stap
