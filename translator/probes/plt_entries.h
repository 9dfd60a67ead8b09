// The PLT entries of an ELF object (x86_64 and i386): which imported
// function each entry jumps to, for process("PATH").plt("NAME").
#pragma once

#include "symtab/elf_image.h"

#include <cstdint>
#include <string>
#include <vector>

namespace stap::probes {

struct PltEntry {
  std::string name; // the imported symbol, without a version ("malloc")
  uint64_t addr = 0; // link-time address of the entry's first instruction
};

// In PLT order. The entry of the i-th jump-slot relocation of
// .rela.plt/.rel.plt is the (i+1)-th 16-byte entry of .plt (entry 0 is the
// lazy resolver's), or with IBT's second PLT the i-th of .plt.sec, where
// calls go. Relocations without a symbol (IRELATIVE) keep their slot.
std::vector<PltEntry> plt_entries(const symtab::ElfImage &elf);

} // namespace stap::probes
