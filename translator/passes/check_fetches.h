// Pass 2: the register and memory fetches checked against the target's
// arch table (translator/arch), so a mistake shows at its place in the
// script instead of at run time:
//   register("NAME"), u_register("NAME") with a literal name: a register
//     the arch has;
//   @kregister(N), @uregister(N): one argument, a DWARF number the arch
//     has when it is a literal;
//   @kderef(SIZE, ADDR), @uderef(SIZE, ADDR): SIZE a literal 1, 2, 4 or 8.
// As in SystemTap 4.8, @kregister and @kderef (kernel state) need guru
// mode (-g) outside tapsets.
#pragma once
#include "passes/program.h"
#include "util/diag.h"

namespace stap {

void check_fetches(Program &program, bool guru, Diagnostics &diag);

} // namespace stap
