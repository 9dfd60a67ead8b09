// Pass 2, right after probe resolution: in a probe whose points are all in
// one user program or library, @cast and @var without a module argument
// mean that object's DWARF, as SystemTap's manual says ("the probe module
// for dwarf probes"): `@cast(p, "struct rec")` reads the program's type,
// `@var("counter@prog.c")` its file-static variable, and `@var("name")`
// is `$name` (4.8: "an alternative syntax for $varname": a local, a
// parameter, or a global of the compilation unit). Elsewhere they stay
// the kernel's.
#pragma once
#include "ast/ast.h"
#include "passes/program.h"

namespace stap {

void default_user_modules(Program &program, ast::Arena &arena);

} // namespace stap
