// The unwind table of each user object (-d, --ldd) that goes into the
// module: symtab's format (docs/unwind.md), with the symbols of the object's
// separate debuginfo file added when the target has one
// (DEBUG_ROOT/.build-id/xx/yyyy.debug, read through the sysroot; Debian's
// -dbgsym packages install them there).
#pragma once

#include "driver/sysroot.h"
#include "driver/user_objects.h"
#include "symtab/unwind_table.h"

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace stap {

struct UserTable {
  std::string target_path;
  std::string debug_file; // the separate debuginfo file used (target path), or ""
  std::vector<uint8_t> blob;   // the table
  std::vector<uint8_t> packed; // what the module carries: `blob`, zlib-compressed
  std::string hash;       // content hash of `blob`: part of the module's cache key
  symtab::TableStats stats;
};

inline const char *const kDefaultDebugRoot = "/usr/lib/debug";

// The separate debuginfo file of an object with this build-id under
// `debug_root`, as a target path, if the sysroot has it; else "".
std::string find_debug_file(const std::string &build_id, const Sysroot &sysroot,
                            const std::string &debug_root = kDefaultDebugRoot);

// The module carries each table zlib-compressed (level 9: 2.5-3x smaller,
// the .eh_frame copies compress well); the runtime inflates it at session
// start (runtime/task/task_finder.c). The table format itself is unchanged.
std::vector<uint8_t> zlib_pack(const std::vector<uint8_t> &bytes);

// Builds the table of `obj`; nothing with `err` set when it cannot.
std::optional<UserTable> build_user_table(const UserObject &obj, const Sysroot &sysroot,
                                          std::string &err,
                                          const std::string &debug_root = kDefaultDebugRoot);

} // namespace stap
