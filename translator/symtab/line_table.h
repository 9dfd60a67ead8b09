// Builds the line table of one user object: what usymfileline() and its
// siblings look addresses up in at run time (runtime/task/line_table.h has
// the layout; docs/unwind.md, "Line tables (ULT1)"). Made from the
// object's DWARF .debug_line with libdw, only for modules whose script
// calls one of those functions.
//
// Compact on purpose: one 8-byte row per address range (rows whose line
// and file repeat the previous row's are merged away), file names stored
// once, the file of each range kept apart in a short run-length array.
// Bounded: an object with more rows than `max_rows` gets no table (its
// addresses print as hex, as for an object without DWARF).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace stap::symtab {

struct LineTableStats {
  size_t rows = 0, files = 0, table_bytes = 0;
  bool too_big = false; // more than max_rows rows: no table
};

// The line table of the DWARF in `dwarf_path` (the object itself, or its
// separate debuginfo file: same addresses), addresses stored as offsets
// from `addr_base` (the object's lowest PT_LOAD page, as its unwind
// table's). Empty without DWARF lines or when too big (stats say which);
// empty with err set when the file cannot be read.
std::vector<uint8_t> build_line_table(const std::string &dwarf_path, uint64_t addr_base,
                                      std::string &err, LineTableStats *stats = nullptr,
                                      size_t max_rows = 1u << 18);

} // namespace stap::symtab
