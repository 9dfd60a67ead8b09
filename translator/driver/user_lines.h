// Line tables for the user objects of a module (-d, --ldd, the objects
// process probes are in), made only when the script calls a function
// whose embedded C says `/* pragma:lines */` (usymfileline() and its
// siblings): other modules do not grow. Each is the object's table from
// symtab/line_table.h, from its own DWARF or, when it has none, from its
// separate debuginfo file; zlib-compressed as the module carries it.
#pragma once

#include "driver/sysroot.h"
#include "driver/user_objects.h"
#include "passes/program.h"
#include "symtab/line_table.h"

#include <cstdint>
#include <string>
#include <vector>

namespace stap {

struct UserLines {
  std::vector<uint8_t> packed; // zlib; empty: the object has no table
  size_t table_bytes = 0;      // what it inflates to
  std::string hash;            // content hash of the table ("" without one)
  std::string source;          // the file its DWARF came from (target path)
  symtab::LineTableStats stats;
  bool from_cache = false;
};

// Does the program call a function that needs line tables?
bool program_wants_lines(const Program &program);

// The line table of `obj`; `debug_file` is the separate debuginfo file
// its unwind table used (target path, or ""). A file that cannot be read
// sets err; no DWARF lines (or too many) is no error, and no table.
// With `cache_dir` (default_table_cache_dir(), beside the unwind tables),
// tables are kept by the content of both files: libc's takes seconds to
// build (139,108 rows from libc6-dbg), a cached one milliseconds.
UserLines build_user_lines(const UserObject &obj, const std::string &debug_file,
                           const Sysroot &sysroot, std::string &err,
                           const std::string &cache_dir = "");

} // namespace stap
