#include "driver/user_lines.h"

#include "ast/ast.h"
#include "build/content_hash.h"
#include "driver/user_tables.h"
#include "symtab/elf_image.h"

#include <string_view>

namespace stap {

bool program_wants_lines(const Program &program) {
  for (const ast::FunctionDecl *fn : program.functions) {
    auto *code = dynamic_cast<const ast::EmbeddedStmt *>(fn->body);
    if (code && code->code.find("/* pragma:lines */") != std::string::npos)
      return true;
  }
  return false;
}

UserLines build_user_lines(const UserObject &obj, const std::string &debug_file,
                           const Sysroot &sysroot, std::string &err) {
  UserLines l;
  auto elf = symtab::ElfImage::open_file(obj.host_path, err);
  if (!elf)
    return l;
  // The object's own DWARF first (a program built with -g), else the
  // separate debuginfo file the unwind table took its symbols from.
  std::vector<uint8_t> table =
      symtab::build_line_table(obj.host_path, elf->load_base(), err, &l.stats);
  l.source = obj.target_path;
  if (table.empty() && !l.stats.too_big && err.empty() && !debug_file.empty()) {
    table = symtab::build_line_table(sysroot.host_path(debug_file), elf->load_base(), err,
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

} // namespace stap
