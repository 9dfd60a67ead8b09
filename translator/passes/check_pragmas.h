// Pass 2, after symbol resolution: the embedded-C pragmas SystemTap 4.8
// checks when a function is called. `/* stable */` (the value does not
// change during one probe handler) needs `/* pure */` as well: "stable
// function must also be /* pure */", at the embedded code. (`/* guru */`
// is check_guru.h's; `/* unprivileged */` and `/* myproc-unprivileged */`
// only matter under --privilege, which is not supported yet.)
#pragma once
#include "passes/program.h"
#include "util/diag.h"

namespace stap {

void check_pragmas(Program &program, Diagnostics &diag);

} // namespace stap
