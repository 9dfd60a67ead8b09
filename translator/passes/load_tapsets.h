// Pass 1/2 boundary: the tapset library. Macro files (*.stpm) are read
// before the user script (their @defines are visible everywhere); script
// files are indexed by a quick scan (tapsets/index.h) and only those that
// define something the program needs, transitively, are parsed into the
// program after the user script. Symbol resolution then takes only what
// the script uses.
#pragma once
#include "parse/parser.h"
#include "passes/program.h"
#include "tapsets/index.h"
#include "tapsets/search_path.h"
#include "util/diag.h"

namespace stap {

// Every *.stpm file of the path, read into one table.
std::shared_ptr<const parse::MacroTable> load_library_macros(const tapsets::TapsetFiles &files,
                                                            const parse::ParseOptions &opts,
                                                            Diagnostics &diag);

// The index of the path's *.stp files.
tapsets::TapsetIndex index_tapsets(const tapsets::TapsetFiles &files);

struct TapsetLoadStats {
  size_t indexed = 0; // script files in the index
  size_t parsed = 0;  // of which parsed
};

// Parses what program.files[0] (the user script) needs, and what that needs.
TapsetLoadStats load_tapsets(Program &program, ast::Arena &arena,
                             const tapsets::TapsetIndex &index, const parse::ParseOptions &opts,
                             Diagnostics &diag);

} // namespace stap
