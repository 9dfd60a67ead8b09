// Pass 2b: `@defined(expr)` becomes 1 or 0 for each probe. It is 1 when
// `expr` has target expressions ($var, @cast, @var, autocast `->`) and each
// of them resolves in the probe's context (passes/target_vars.h: the
// point's debuginfo, `$var->member` chains included), 0
// otherwise: also for an operand with no target expression at all, and
// anywhere in a function (functions have no probe context), as in
// SystemTap 4.8. A body shared by probe points that answer differently
// (`probe kernel.function("f"), kernel.function("f").return`) is copied,
// one copy per distinct set of answers. Constant folding (fold_constants)
// then drops the branches that cannot run, with the target variables in
// them, so `if (@defined($x)) y = $x` is no error where $x does not exist.
#pragma once
#include "ast/ast.h"
#include "passes/program.h"

namespace stap {

void fold_defined(const probes::ResolveEnv &env, Program &program, ast::Arena &arena);

} // namespace stap
