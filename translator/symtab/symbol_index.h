// The table's symbol part: function symbols sorted by address, one name per
// address, sizes filled in for symbols that lack one.
#pragma once

#include "symtab/elf_image.h"

#include <cstdint>
#include <string>
#include <vector>

namespace stap::symtab {

struct IndexedSymbol {
  uint64_t start;
  uint64_t size;
  std::string name;
};

// Chooses one symbol per start address (sized over unsized, unversioned
// names over "name@VERSION" aliases, .symtab over .dynsym, global over weak
// over local, then the shorter name; runtime/task/elf_table.c chooses the
// same way) and gives
// unsized symbols the distance to the next symbol. Sorted by start.
std::vector<IndexedSymbol> index_symbols(std::vector<ElfSymbol> syms);

} // namespace stap::symtab
