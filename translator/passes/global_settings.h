// `-G name=value`: the global must be a numeric or string scalar of the
// program, and a numeric one needs a number (checked in pass 2, where the
// types are known; the value reaches the module as a module parameter).
#pragma once
#include "passes/program.h"
#include "util/diag.h"

#include <string>
#include <vector>

namespace stap {

void check_global_settings(const Program &program, const std::vector<std::string> &settings,
                           Diagnostics &diag);

} // namespace stap
