// PLT entries from the ELF's sections: the jump-slot relocations name the
// symbols (in .dynsym), their order is the entries' order. See
// plt_entries.h.
#include "probes/plt_entries.h"

#include <cstring>
#include <elf.h>

namespace stap::probes {
namespace {

constexpr uint64_t kPltEntrySize = 16; // x86_64 and i386, lazy and IBT

template <typename T> bool read_at(const std::vector<uint8_t> &b, size_t off, T &out) {
  if (off + sizeof(T) > b.size())
    return false;
  std::memcpy(&out, b.data() + off, sizeof(T));
  return true;
}

// The name of .dynsym entry `index`, "" if none.
std::string dynsym_name(const symtab::ElfSection &dynsym, const symtab::ElfSection &dynstr,
                        uint64_t index, bool is64) {
  uint32_t name = 0;
  size_t off = index * (is64 ? sizeof(Elf64_Sym) : sizeof(Elf32_Sym));
  if (!read_at(dynsym.bytes, off + (is64 ? offsetof(Elf64_Sym, st_name)
                                         : offsetof(Elf32_Sym, st_name)),
               name) ||
      name >= dynstr.bytes.size())
    return "";
  const char *s = reinterpret_cast<const char *>(dynstr.bytes.data()) + name;
  return std::string(s, strnlen(s, dynstr.bytes.size() - name));
}

} // namespace

std::vector<PltEntry> plt_entries(const symtab::ElfImage &elf) {
  std::vector<PltEntry> out;
  const bool is64 = elf.is_64();
  auto rel = elf.section(is64 ? ".rela.plt" : ".rel.plt");
  auto dynsym = elf.section(".dynsym");
  auto dynstr = elf.section(".dynstr");
  auto plt_sec = elf.section(".plt.sec");
  auto plt = elf.section(".plt");
  if (!rel || !dynsym || !dynstr || (!plt && !plt_sec))
    return out;
  const uint64_t first = plt_sec ? plt_sec->vaddr : plt->vaddr + kPltEntrySize;
  const size_t relsize = is64 ? sizeof(Elf64_Rela) : sizeof(Elf32_Rel);
  for (size_t i = 0; (i + 1) * relsize <= rel->bytes.size(); ++i) {
    uint64_t sym = 0;
    unsigned type = 0;
    if (is64) {
      Elf64_Rela r;
      read_at(rel->bytes, i * relsize, r);
      sym = ELF64_R_SYM(r.r_info);
      type = ELF64_R_TYPE(r.r_info);
    } else {
      Elf32_Rel r;
      read_at(rel->bytes, i * relsize, r);
      sym = ELF32_R_SYM(r.r_info);
      type = ELF32_R_TYPE(r.r_info);
    }
    const bool jump_slot = is64 ? type == R_X86_64_JUMP_SLOT : type == R_386_JMP_SLOT;
    if (!jump_slot || !sym)
      continue;
    std::string name = dynsym_name(*dynsym, *dynstr, sym, is64);
    if (name.empty())
      continue;
    out.push_back({name.substr(0, name.find('@')), first + i * kPltEntrySize});
  }
  return out;
}

} // namespace stap::probes
