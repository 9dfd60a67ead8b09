// DWARF types -> debuginfo::TypeTable. One reader per DebugFile; each DIE
// is translated once (by its offset), so a struct met through many
// variables is one entry, and recursive types (a list's `next`) close.
//
// Also the small API the tracepoint query module reader uses: every named
// struct/union/typedef and the prototypes of a file's functions, without
// going through probe points.
#pragma once
#include "debuginfo/types.h"

#include <elfutils/libdw.h>

#include <map>
#include <memory>
#include <string>

namespace stap::dwarf {

class DebugFile;

class TypeReader {
public:
  TypeReader() : table_(std::make_shared<debuginfo::TypeTable>()) {}
  // The table the ids below index (grows as types are read).
  std::shared_ptr<debuginfo::TypeTable> table() const { return table_; }
  // The type of `die` (a type DIE), translated on first use.
  debuginfo::TypeId type_of(Dwarf_Die *type_die);
  // The type an entity DIE (variable, parameter, member, function's
  // return) names through DW_AT_type; void when it has none.
  debuginfo::TypeId type_attr(Dwarf_Die *die);

private:
  debuginfo::TypeId translate(Dwarf_Die *die);
  void fill_members(Dwarf_Die *die, debuginfo::Type &t);
  std::shared_ptr<debuginfo::TypeTable> table_;
  std::map<Dwarf_Off, debuginfo::TypeId> done_;
};

// Every type the DWARF of `file` defines (named structs, unions, enums,
// typedefs, base types) and a Func type per function with its parameters'
// names: for readers that want a file's types without a probe point (the
// tracepoint query module). Returns the table; `functions` maps each
// function name to its prototype.
std::shared_ptr<debuginfo::TypeTable>
read_all_types(DebugFile &file, std::map<std::string, debuginfo::TypeId> *functions = nullptr);

} // namespace stap::dwarf
