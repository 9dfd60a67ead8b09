// The unwind table of each user object (-d, --ldd) that goes into the
// module: symtab's format (docs/unwind.md), with the symbols of the object's
// separate debuginfo file added when the target has one
// (DEBUG_ROOT/.build-id/xx/yyyy.debug, read through the sysroot; Debian's
// -dbgsym packages install them there).
#pragma once

#include "driver/sysroot.h"
#include "driver/user_lines.h"
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
  std::vector<uint8_t> blob;   // the table (empty when it came from the cache)
  size_t table_bytes = 0;      // its length
  std::vector<uint8_t> packed; // what the module carries: pack_for_module(blob)
  std::string hash;       // content hash of `blob`: part of the module's cache key
  symtab::TableStats stats;    // fdes and symbols (also from the cache)
  bool from_cache = false;
  UserLines lines;             // its line table, when the script needs one
};

inline const char *const kDefaultDebugRoot = "/usr/lib/debug";

// The separate debuginfo file of an object with this build-id under
// `debug_root`, as a target path, if the sysroot has it; else "".
std::string find_debug_file(const std::string &build_id, const Sysroot &sysroot,
                            const std::string &debug_root = kDefaultDebugRoot);

// What the module carries of a table: uw_pack()ed (unwind/uw_pack.h: a
// reversible transform that helps compression), then zlib-compressed (level
// 9): 2.5-4x smaller than the table. The runtime inflates and unpacks it at
// session start (runtime/task/task_finder.c). The table format is unchanged.
std::vector<uint8_t> pack_for_module(const std::vector<uint8_t> &table);

// zlib at level 9, what the runtime inflates (the line tables go in this
// way, unpacked); empty if compression fails.
std::vector<uint8_t> compress_for_module(const std::vector<uint8_t> &raw);

// Builds the table of `obj`; nothing with `err` set when it cannot. With a
// `cache_dir` ($SYSTEMTAP_DIR/uwtables), a table made before from the same
// object and debuginfo file (content hashes) is taken from there instead:
// packing and compressing libc takes about 100 ms, hashing it a few.
std::optional<UserTable> build_user_table(const UserObject &obj, const Sysroot &sysroot,
                                          std::string &err,
                                          const std::string &debug_root = kDefaultDebugRoot,
                                          const std::string &cache_dir = "");

// The table cache's directory: $SYSTEMTAP_DIR/uwtables.
std::string default_table_cache_dir();

} // namespace stap
