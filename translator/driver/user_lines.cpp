#include "driver/user_lines.h"

#include "ast/ast.h"
#include "build/content_hash.h"
#include "driver/table_cache.h"
#include "driver/user_tables.h"
#include "symtab/elf_image.h"

#include <sstream>
#include <string_view>

namespace stap {

namespace {

// Bump when symtab/line_table.cpp or the compression change what a cached
// entry would hold.
constexpr const char *kLinesCacheVersion = "lines1+zlib9 2026-11-28";

// An entry (table_cache.h): the header "TABLE_BYTES HASH ROWS FILES
// TOO_BIG SOURCE" (HASH "-" for an object without a table), then the
// compressed table.
bool read_entry(const std::string &path, UserLines &l) {
  std::string header;
  if (!read_table_cache(path, header, l.packed))
    return false;
  std::istringstream fields(header);
  int too_big = 0;
  if (!(fields >> l.table_bytes >> l.hash >> l.stats.rows >> l.stats.files >> too_big))
    return false;
  std::getline(fields >> std::ws, l.source);
  l.stats.too_big = too_big != 0;
  l.stats.table_bytes = l.table_bytes;
  if (l.hash == "-") { // no table: nothing may follow
    l.hash.clear();
    return l.packed.empty() && l.table_bytes == 0;
  }
  return l.hash.size() == 32 && !l.packed.empty() && !l.source.empty();
}

void write_entry(const std::string &path, const UserLines &l) {
  std::ostringstream header;
  header << l.table_bytes << " " << (l.hash.empty() ? "-" : l.hash) << " " << l.stats.rows << " "
         << l.stats.files << " " << (l.stats.too_big ? 1 : 0) << " " << l.source;
  write_table_cache(path, header.str(), l.packed);
}

// The table itself (build_user_lines, without the cache).
UserLines build_uncached(const UserObject &obj, const symtab::ElfImage &elf,
                         const std::string &debug_file, const Sysroot &sysroot, std::string &err) {
  UserLines l;
  // The object's own DWARF first (a program built with -g), else the
  // separate debuginfo file the unwind table took its symbols from.
  std::vector<uint8_t> table =
      symtab::build_line_table(obj.host_path, elf.load_base(), err, &l.stats);
  l.source = obj.target_path;
  if (table.empty() && !l.stats.too_big && err.empty() && !debug_file.empty()) {
    table = symtab::build_line_table(sysroot.host_path(debug_file), elf.load_base(), err,
                                     &l.stats);
    l.source = debug_file;
  }
  if (table.empty() || !err.empty())
    return l;
  l.table_bytes = table.size();
  l.packed = compress_for_module(table);
  if (l.packed.empty()) {
    err = "cannot compress the line table";
    return l;
  }
  l.hash = build::ContentHash()
               .add(std::string_view(reinterpret_cast<const char *>(table.data()), table.size()))
               .hex();
  return l;
}

} // namespace

bool program_wants_lines(const Program &program) {
  for (const ast::FunctionDecl *fn : program.functions) {
    auto *code = dynamic_cast<const ast::EmbeddedStmt *>(fn->body);
    if (code && code->code.find("/* pragma:lines */") != std::string::npos)
      return true;
  }
  return false;
}

UserLines build_user_lines(const UserObject &obj, const std::string &debug_file,
                           const Sysroot &sysroot, std::string &err,
                           const std::string &cache_dir) {
  UserLines l;
  auto elf = symtab::ElfImage::open_file(obj.host_path, err);
  if (!elf)
    return l;
  std::string cached;
  if (!cache_dir.empty()) {
    build::ContentHash key;
    key.add(kLinesCacheVersion).add(obj.target_path).add_file(obj.host_path);
    if (!debug_file.empty())
      key.add(debug_file).add_file(sysroot.host_path(debug_file));
    cached = table_cache_path(cache_dir, key.hex(), "lnz");
    if (read_entry(cached, l)) {
      l.from_cache = true;
      return l;
    }
  }
  l = build_uncached(obj, *elf, debug_file, sysroot, err);
  if (!cached.empty() && err.empty())
    write_entry(cached, l);
  return l;
}

} // namespace stap
