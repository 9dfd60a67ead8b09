// Pass 2, after target variables and autocasts are typed: assignments to
// the probed code's data (`$count = 0`, `$file->f_pos = 0`, `p->x++`,
// `@cast(p, "T")->f = 1`). Only guru mode (-g) may write, with SystemTap
// 4.8's messages otherwise ("write to target variable not permitted; need
// stap -g", "write to @cast context variable not permitted; need stap -g",
// "write not permitted; need stap -g" for autocast). In guru mode the
// written place must be an integer or pointer held whole in a register
// (a parameter, `$return`) or in memory (not a bitfield, not a value
// computed by a location expression); a return probe may write only
// `$return` ("write to target variable not permitted in .return probes").
#pragma once
#include "passes/program.h"
#include "util/diag.h"

namespace stap {

void check_target_writes(const probes::ResolveEnv &env, Program &program, bool guru_mode,
                         Diagnostics &diag);

// The expression an assignment or ++/-- writes, when it is the probed
// code's data ($var, @cast, @var, autocast), else nullptr.
ast::Expr *written_target(ast::Expr *target);

} // namespace stap
