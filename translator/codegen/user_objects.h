// The module's user objects (`-d PATH`, `--ldd`): for each, the path the
// target's kernel names it by and its unwind table. The tables themselves
// are not C text (hundreds of KB of array initializers compile slowly): an
// assembler file that Kbuild builds beside the C (build/kbuild.h,
// KbuildJob::blobs) includes each one with `.incbin` as symbol
// `blob_symbol(i)`; the C declares them and fills stp_module.uobjects.
#pragma once
#include "codegen/module_writer.h"

#include <string>
#include <vector>

namespace stap::codegen {

struct EmbeddedTable {
  std::string target_path; // as the VMA tracker will see it: "/usr/bin/ls"
  size_t bytes = 0;        // the blob in the module (zlib data)
  size_t raw_bytes = 0;    // the table it inflates to
  std::string hash;        // of the table, so the C (and the cache key) changes with it
  // Its line table (zlib), for usymfileline() and its siblings: 0 bytes
  // when the script needs none or the object has no DWARF lines.
  size_t lines_bytes = 0, lines_raw_bytes = 0;
  std::string lines_hash;
};

// The assembler symbol of table i, and of its line table.
std::string blob_symbol(size_t i);
std::string lines_symbol(size_t i);

// `extern` declarations, `struct stp_uobject stp_uobjects[]`, and the
// module's uobjects / n_uobjects; the VMA tracker is needed to use them.
void emit_user_objects(ModuleWriter &w, const std::vector<EmbeddedTable> &tables);

} // namespace stap::codegen
