// -p2: the elaborated program as SystemTap prints it: globals, functions
// and probes with their inferred types and locals.
#pragma once
#include "passes/program.h"

#include <iosfwd>

namespace stap {

void print_program(const Program &program, std::ostream &out);

} // namespace stap
