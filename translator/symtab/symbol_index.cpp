// Symbol selection for the unwind table; see symbol_index.h.
#include "symtab/symbol_index.h"

#include <algorithm>
#include <elf.h>
#include <tuple>

namespace stap::symtab {

namespace {

int binding_rank(unsigned char b) {
  return b == STB_GLOBAL ? 0 : b == STB_WEAK ? 1 : 2;
}

// A symbol-version alias ("__libc_start_main@@GLIBC_2.34", written into
// .symtab by .symver) names the same code as an unversioned symbol, which
// is what gdb and users call it.
bool versioned(const std::string &name) { return name.find('@') != std::string::npos; }

// Smaller is preferred.
auto preference(const ElfSymbol &s) {
  return std::make_tuple(s.size == 0, versioned(s.name), !s.from_symtab,
                         binding_rank(s.binding), s.name.size(), s.name);
}

} // namespace

std::vector<IndexedSymbol> index_symbols(std::vector<ElfSymbol> syms) {
  std::sort(syms.begin(), syms.end(),
            [](const ElfSymbol &a, const ElfSymbol &b) {
              if (a.value != b.value)
                return a.value < b.value;
              return preference(a) < preference(b);
            });
  std::vector<IndexedSymbol> out;
  for (const ElfSymbol &s : syms)
    if (out.empty() || out.back().start != s.value)
      out.push_back({s.value, s.size, s.name});
  for (size_t i = 0; i < out.size(); ++i)
    if (out[i].size == 0 && i + 1 < out.size())
      out[i].size = out[i + 1].start - out[i].start;
  return out;
}

} // namespace stap::symtab
