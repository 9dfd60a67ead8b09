// The few DWARF things the tracepoint query objects need, read with libdw:
// a DIE's type converted into the shared TypeTable (structs, unions, enums,
// arrays, pointers, typedefs, qualifiers, prototypes). Small on purpose:
// the general DWARF reader (translator/dwarf/) replaces it once it lands.
#pragma once
#include "debuginfo/types.h"

#include <elfutils/libdw.h>

#include <unordered_map>

namespace stap::tracequery {

class DwarfTypeReader {
public:
  explicit DwarfTypeReader(debuginfo::TypeTable &table) : table_(table) {}
  // The type of `die` (its DW_AT_type), converted; void when it has none.
  debuginfo::TypeId type_of(Dwarf_Die *die);
  // The type DIE itself, converted (memoized by DIE offset).
  debuginfo::TypeId convert(Dwarf_Die *type_die);

private:
  debuginfo::TypeTable &table_;
  std::unordered_map<Dwarf_Off, debuginfo::TypeId> done_;
};

} // namespace stap::tracequery
