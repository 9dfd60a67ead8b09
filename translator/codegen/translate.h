// Pass 3: the checked program as the C source of a kernel module.
#pragma once
#include "passes/program.h"
#include "util/diag.h"

#include <string>

namespace stap::codegen {

// Returns the C text; errors (unsupported constructs) go to `diag`.
std::string translate_program(Program &program, Diagnostics &diag);

} // namespace stap::codegen
