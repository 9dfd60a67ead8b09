#include "dwarf/debug_file.h"

#include "dwarf/type_reader.h"

#include <cstring>
#include <fcntl.h>
#include <gelf.h>

namespace stap::dwarf {
namespace {

// Offline reporting only: nothing is looked up on the build host's
// running kernel or debuginfod.
char *no_debuginfo_path = nullptr;
const Dwfl_Callbacks offline_callbacks = {
    dwfl_build_id_find_elf, dwfl_standard_find_debuginfo, dwfl_offline_section_address,
    &no_debuginfo_path};

// A separate debuginfo file chosen by the caller (dwarf/user_debuginfo.h
// finds it), handed to libdwfl through the module's userdata.
int chosen_debuginfo(Dwfl_Module *, void **userdata, const char *, Dwarf_Addr, const char *,
                     const char *, GElf_Word, char **file_name) {
  const auto *path = static_cast<const std::string *>(*userdata);
  if (!path || path->empty())
    return -1;
  int fd = ::open(path->c_str(), O_RDONLY | O_CLOEXEC);
  if (fd >= 0)
    *file_name = strdup(path->c_str());
  return fd;
}
const Dwfl_Callbacks chosen_callbacks = {dwfl_build_id_find_elf, chosen_debuginfo,
                                         dwfl_offline_section_address, &no_debuginfo_path};

} // namespace

std::unique_ptr<DebugFile> DebugFile::open(const std::string &path, std::string &err,
                                           const std::string &debug_path) {
  std::unique_ptr<DebugFile> f(new DebugFile);
  f->path_ = path;
  f->debug_path_ = debug_path;
  f->dwfl_ = dwfl_begin(debug_path.empty() ? &offline_callbacks : &chosen_callbacks);
  if (!f->dwfl_) {
    err = dwfl_errmsg(-1);
    return nullptr;
  }
  dwfl_report_begin(f->dwfl_);
  f->module_ = dwfl_report_offline(f->dwfl_, path.c_str(), path.c_str(), -1);
  dwfl_report_end(f->dwfl_, nullptr, nullptr);
  if (!f->module_) {
    err = std::string("cannot read '") + path + "': " + dwfl_errmsg(-1);
    return nullptr;
  }
  if (!debug_path.empty()) {
    void **userdata = nullptr;
    dwfl_module_info(f->module_, &userdata, nullptr, nullptr, nullptr, nullptr, nullptr, nullptr);
    if (userdata)
      *userdata = &f->debug_path_;
  }
  GElf_Addr elf_bias = 0;
  if (Elf *elf = dwfl_module_getelf(f->module_, &elf_bias)) {
    GElf_Ehdr eh;
    if (gelf_getehdr(elf, &eh))
      f->relocatable_ = eh.e_type == ET_REL;
  }
  f->dwarf_ = dwfl_module_getdwarf(f->module_, &f->bias_);
  return f;
}

DebugFile::~DebugFile() {
  if (dwfl_)
    dwfl_end(dwfl_);
}

std::optional<SymbolOffset> DebugFile::symbol_at(Dwarf_Addr addr) const {
  GElf_Off off = 0;
  GElf_Sym sym;
  const char *name = dwfl_module_addrinfo(module_, addr + bias_, &off, &sym, nullptr, nullptr,
                                          nullptr);
  if (!name)
    return std::nullopt;
  return SymbolOffset{name, off, addr - off};
}

std::string DebugFile::section_at(Dwarf_Addr addr) const {
  Dwarf_Addr a = addr + bias_;
  Dwarf_Addr sec_bias = 0;
  Elf_Scn *scn = dwfl_module_address_section(module_, &a, &sec_bias);
  if (!scn)
    return "";
  GElf_Addr elf_bias;
  Elf *elf = dwfl_module_getelf(module_, &elf_bias);
  size_t shstrndx;
  GElf_Shdr sh;
  if (!elf || elf_getshdrstrndx(elf, &shstrndx) != 0 || !gelf_getshdr(scn, &sh))
    return "";
  const char *n = elf_strptr(elf, shstrndx, sh.sh_name);
  return n ? n : "";
}

std::optional<Dwarf_Addr> DebugFile::section_start(Dwarf_Addr addr) const {
  Dwarf_Addr a = addr + bias_;
  Dwarf_Addr sec_bias = 0;
  Elf_Scn *scn = dwfl_module_address_section(module_, &a, &sec_bias);
  if (!scn)
    return std::nullopt;
  return addr - a; // `a` is now the offset within the section
}

std::optional<Dwarf_Addr> DebugFile::symbol_address(const std::string &name) const {
  int n = dwfl_module_getsymtab(module_);
  for (int i = 1; i < n; ++i) {
    GElf_Sym sym;
    GElf_Addr addr;
    const char *s = dwfl_module_getsym_info(module_, i, &sym, &addr, nullptr, nullptr, nullptr);
    if (s && name == s && sym.st_shndx != SHN_UNDEF &&
        (GELF_ST_TYPE(sym.st_info) == STT_FUNC || GELF_ST_TYPE(sym.st_info) == STT_OBJECT))
      return addr - bias_;
  }
  return std::nullopt;
}

TypeReader &DebugFile::types() {
  if (!types_)
    types_ = std::make_unique<TypeReader>();
  return *types_;
}

Dwarf_CFI *DebugFile::cfi(Dwarf_Addr &cfi_bias) const {
  if (Dwarf_CFI *c = dwfl_module_dwarf_cfi(module_, &cfi_bias))
    return c;
  return dwfl_module_eh_cfi(module_, &cfi_bias);
}

} // namespace stap::dwarf
