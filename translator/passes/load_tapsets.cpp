#include "passes/load_tapsets.h"

namespace stap {

size_t load_tapsets(Program &program, ast::Arena &arena, const tapsets::SearchPathConfig &path,
                    const parse::ParseOptions &opts, Diagnostics &diag) {
  tapsets::TapsetFiles files = tapsets::find_tapset_files(path);
  size_t n = 0;
  for (const auto &p : files.script_files) {
    std::string err;
    // Tapsets are privileged: they may use embedded C.
    auto src = read_source_file(p, /*privileged=*/true, err);
    if (!src) {
      diag.error(err);
      continue;
    }
    program.files.push_back(parse::parse_file(src, arena, diag, opts));
    ++n;
  }
  return n;
}

} // namespace stap
