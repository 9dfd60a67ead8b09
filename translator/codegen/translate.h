// Pass 3: the checked program as the C source of a kernel module.
#pragma once
#include "codegen/user_objects.h"
#include "passes/program.h"
#include "util/diag.h"

#include <string>

namespace stap::codegen {

// Returns the C text; errors (unsupported constructs) go to `diag`.
// `tables`: the user objects' unwind tables the module carries (-d, --ldd).
std::string translate_program(Program &program, Diagnostics &diag,
                              const std::vector<EmbeddedTable> &tables = {});

} // namespace stap::codegen
