// Pass 2: parses the tapset library into the program, after the user
// script. Symbol resolution then takes only what the script uses.
#pragma once
#include "parse/parser.h"
#include "passes/program.h"
#include "tapsets/search_path.h"
#include "util/diag.h"

namespace stap {

// Returns the number of tapset files parsed.
size_t load_tapsets(Program &program, ast::Arena &arena, const tapsets::SearchPathConfig &path,
                    const parse::ParseOptions &opts, Diagnostics &diag);

} // namespace stap
