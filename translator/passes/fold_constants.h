// Pass 2c: constant folding, where SystemTap 4.8 does it (with or without
// -u). Operators on number literals become literals (arithmetic wraps at
// 64 bits, shifts take the count modulo 64, a division by zero is left
// for run time); string literals compare; `0 && e` is 0 and `1 || e` is 1;
// `c ? a : b` with a constant c becomes a or b; `if (0) S` goes (its else
// stays), `if (1) S else T` keeps S, `while (0) S` and `for (i; 0; s) S`
// keep only `i`. Code that is dropped is never resolved, so the target
// variables and unknown functions in it are no error.
#pragma once
#include "ast/ast.h"
#include "passes/program.h"

namespace stap {

void fold_constants(Program &program, ast::Arena &arena);

} // namespace stap
