// Pass 2a: binds every probe point of the user script to a probe family,
// expanding probe aliases and wildcards on the way (docs/probes.md).
#pragma once
#include "ast/ast.h"
#include "passes/program.h"
#include "util/diag.h"

namespace stap {

// Appends to program.probes and replaces the script's probe list with the
// probes that run (alias expansion makes new ones), the plain probes of
// the loaded tapset files among them. Reports points that
// match nothing, unless `quiet_no_match` (stap -l).
void resolve_probes(const probes::ResolveEnv &env, Program &program, ast::Arena &arena,
                    Diagnostics &diag, bool quiet_no_match = false);

} // namespace stap
