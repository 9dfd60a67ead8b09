// Which globals a session prints at its end, and in what order: those the
// script writes but never reads, as SystemTap does (`count=5`,
// `a["x",1]=3`). Read by -p2's listing (SystemTap shows an `end` probe
// for each) and by codegen/global_display.cpp, which prints them.
#pragma once
#include "passes/program.h"

#include <vector>

namespace stap {

// The program's globals in the order symbol resolution first met them
// (Program::globals_by_first_use), the order SystemTap 4.8 lists and
// displays them; globals a later pass added come last.
std::vector<ast::GlobalDecl *> globals_in_listing_order(const Program &program);

// The script's own globals (not a library's bookkeeping, such as json.stp's
// counters) that are assigned but never read, in listing order.
std::vector<ast::GlobalDecl *> displayed_globals(const Program &program);

} // namespace stap
