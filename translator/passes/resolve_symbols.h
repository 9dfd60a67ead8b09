// Pass 2: binds every variable and call in the program to its declaration.
//
// SystemTap's rules: a name declared `global` (in the script, or in a tapset
// file that gets pulled in) is that global, unless a parameter of the
// enclosing function shadows it; any other name is a local of the enclosing
// probe or function, created on first use. `private` globals and functions
// are visible only inside their own file. Calls bind to a user function of
// the same name and arity first, then to the built-ins.
#pragma once
#include "passes/program.h"
#include "util/diag.h"

namespace stap {

// Fills program.functions and program.globals with what is in use;
// `keep_unused` (-u) keeps every function of the user script; `listing`
// (-l/-L) leaves a call to an undefined function unbound instead of an
// error, as SystemTap 4.8 lists such points (e.g. tcpmib.*, whose filter
// the script defines) with the variables' types "unknown".
void resolve_symbols(Program &program, ast::Arena &arena, Diagnostics &diag,
                     bool keep_unused, bool listing = false);

} // namespace stap
