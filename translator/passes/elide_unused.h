// Pass 2: drops what tapset alias code computes for a probe that never
// reads it, as SystemTap does. `probe syscall.open { println(name) }` runs
// the alias prologue of syscall.open, which sets name, filename, flags,
// flags_str, mode and argstr; only `name` is read, so the other
// assignments (string copies from user memory, flag decoding) are removed.
//
// An assignment `x = expr` is removed when the local x is read nowhere in
// the probe and expr has no side effects: no assignment to anything but a
// local, no ++/-- of a global, no call of a function that is not pure. An
// embedded-C function is pure when its body says `/* pure */`; a script
// function when its body has no side effects; of the built-ins, the
// sprint family. Repeated until nothing changes (argstr's removal frees
// flags_str). The user script's own dead assignments go too, as in 4.8
// (warn_unused.h says "Eliding assignment to 'x'" at each).
//
// In the user script's own probes and functions, an expression statement
// without side effects (`1;`, `x;`, `f();` of a pure f, `a[k];`) is removed
// with SystemTap 4.8's warning "Eliding side-effect-free expression" (4.8
// then prints only the first such warning without -v; every one is
// printed here).
//
// Afterwards the program's functions and globals are those the remaining
// code reaches: a function whose every call was elided goes too, as in 4.8.
#pragma once
#include "passes/program.h"
#include "util/diag.h"

namespace stap {

void elide_unused_assignments(Program &program, Diagnostics &diag);

// Then the locals the elision left unnamed leave their probe's or
// function's list (4.8's -p2 shows only the locals still used; -L keeps
// an alias's locals, which it lists as the probe's variables).
void drop_unused_locals(Program &program);

} // namespace stap
