// Pass 2: whole-program type inference.
//
// Types flow both ways through assignments, comparisons, function
// parameters and returns, array keys and values, until nothing changes;
// then every expression and variable has one of long, string or stats, or
// an error says which name could not be typed or where two types met.
#pragma once
#include "passes/program.h"
#include "util/diag.h"

namespace stap {

void infer_types(Program &program, Diagnostics &diag);

} // namespace stap
