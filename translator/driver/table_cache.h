// One file of the table cache ($SYSTEMTAP_DIR/uwtables): a header line of
// fields, then the bytes a module carries. The unwind tables
// (user_tables.cpp) and the line tables (user_lines.cpp) are kept this
// way, each with its own fields and file extension.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace stap {

// DIR/KE/KEY.EXT: a level of directories by the key's first two digits.
std::string table_cache_path(const std::string &dir, const std::string &key,
                             const std::string &ext);

// The header line (without its newline) and the bytes after it; false
// when the file is missing or has no header line.
bool read_table_cache(const std::string &path, std::string &header, std::vector<uint8_t> &bytes);

// Writes through a temporary file renamed into place, so readers never see
// half an entry (concurrent writers: the last one wins); a failed write
// leaves nothing.
void write_table_cache(const std::string &path, const std::string &header,
                       const std::vector<uint8_t> &bytes);

} // namespace stap
