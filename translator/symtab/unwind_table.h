// Builds the unwind table of one ELF object: the format the unwinder in
// unwind/ consumes (unwind/uw_table.h, docs/unwind.md) and that `-d PATH`
// embeds in modules. Contents: a sorted FDE index, verbatim copies of
// .eh_frame (and .debug_frame for ranges .eh_frame lacks), and a sorted
// function-symbol table with a string pool.
#pragma once

#include "symtab/elf_image.h"

#include <cstdint>
#include <string>
#include <vector>

namespace stap::symtab {

struct TableStats {
  size_t eh_frame_bytes = 0;
  size_t debug_frame_bytes = 0;
  size_t fdes = 0;
  size_t symbols = 0;
  size_t table_bytes = 0;
  bool used_eh_frame_hdr = false; // FDE index taken from .eh_frame_hdr
};

struct TableOptions {
  bool eh_frame = true;    // use .eh_frame
  bool debug_frame = true; // add .debug_frame FDEs for uncovered ranges
  bool symbols = true;
  // Function symbols of the object's separate debuginfo file (its .symtab,
  // same addresses), added to the object's own; at an address both name,
  // the choice follows index_symbols().
  std::vector<ElfSymbol> extra_symbols;
};

// Returns the table, or an empty vector with err set (unsupported machine,
// malformed CFI). An object without any CFI still gets a (symbol) table.
std::vector<uint8_t> build_unwind_table(const ElfImage &elf, std::string &err,
                                        TableStats *stats = nullptr,
                                        const TableOptions &opts = {});

// Convenience: open path and build.
std::vector<uint8_t> build_unwind_table(const std::string &path,
                                        std::string &err,
                                        TableStats *stats = nullptr,
                                        const TableOptions &opts = {});

} // namespace stap::symtab
