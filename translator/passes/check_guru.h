// Pass 2, after symbol resolution: a function whose embedded C is marked
// `/* guru */` (writes to kernel or user memory, busy delays, printk) may
// only be called in guru mode (-g), as in SystemTap 4.8 ("function may not
// be used unless -g is specified"). The error points at each call.
#pragma once
#include "passes/program.h"
#include "util/diag.h"

namespace stap {

// Whether `fn` is embedded C that says `/* guru */`.
bool is_guru_function(const ast::FunctionDecl &fn);

void check_guru_calls(Program &program, bool guru_mode, Diagnostics &diag);

} // namespace stap
