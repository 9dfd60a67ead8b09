// Pass 2, before @entry: in a function return probe, a parameter
// (`$count`, `$file->f_path`, `$$parms`) means its value when the function
// was entered, as in SystemTap: by the time the function returns, the
// registers that held the arguments hold something else. Each such use
// becomes `@entry(use)`, which passes/entry_values.cpp then computes at
// entry. Only for bodies whose points are all return probes with
// debuginfo (a shared body with an entry point reads parameters directly).
#pragma once
#include "ast/ast.h"
#include "passes/program.h"

namespace stap {

void parameters_at_entry(Program &program, ast::Arena &arena);

} // namespace stap
