#include "symtab/module_symbols.h"

#include "lang/glob.h"
#include "remote/vm.h"

#include <algorithm>
#include <cstring>
#include <fcntl.h>
#include <filesystem>
#include <gelf.h>
#include <libelf.h>
#include <map>
#include <unistd.h>

namespace stap::symtab {
namespace fs = std::filesystem;
namespace {

std::string modules_dir(const std::string &release) {
  for (const auto &t : remote::installed_vm_targets())
    if (t.release == release)
      return t.modules_dir;
  return "/lib/modules/" + release;
}

// Module name -> .ko path, for every module of the release (scanned once).
const std::map<std::string, std::string> &module_files(const std::string &release) {
  static std::map<std::string, std::map<std::string, std::string>> by_release;
  auto [it, fresh] = by_release.try_emplace(release);
  if (!fresh)
    return it->second;
  std::error_code ec;
  std::string dir = modules_dir(release) + "/kernel";
  for (fs::recursive_directory_iterator i(dir, ec), end; !ec && i != end; i.increment(ec)) {
    const fs::path &p = i->path();
    if (p.extension() != ".ko")
      continue; // compressed modules (.ko.xz) are not read
    std::string name = p.stem().string();
    std::replace(name.begin(), name.end(), '-', '_');
    it->second.emplace(name, p.string());
  }
  return it->second;
}

} // namespace

std::vector<std::string> ko_functions(const std::string &path) {
  std::vector<std::string> names;
  elf_version(EV_CURRENT);
  int fd = open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0)
    return names;
  Elf *elf = elf_begin(fd, ELF_C_READ, nullptr);
  size_t shstrndx = 0;
  if (elf && elf_getshdrstrndx(elf, &shstrndx) == 0) {
    for (Elf_Scn *scn = elf_nextscn(elf, nullptr); scn; scn = elf_nextscn(elf, scn)) {
      GElf_Shdr sh;
      if (!gelf_getshdr(scn, &sh) || sh.sh_type != SHT_SYMTAB || sh.sh_entsize == 0)
        continue;
      Elf_Data *d = elf_getdata(scn, nullptr);
      for (size_t i = 0; d && i < sh.sh_size / sh.sh_entsize; ++i) {
        GElf_Sym sym;
        if (!gelf_getsym(d, static_cast<int>(i), &sym) || GELF_ST_TYPE(sym.st_info) != STT_FUNC ||
            sym.st_shndx == SHN_UNDEF || sym.st_shndx >= SHN_LORESERVE)
          continue;
        // __init code is freed once the module is loaded: nothing to probe.
        GElf_Shdr in;
        Elf_Scn *section = elf_getscn(elf, sym.st_shndx);
        const char *section_name =
            section && gelf_getshdr(section, &in) ? elf_strptr(elf, shstrndx, in.sh_name) : nullptr;
        if (section_name && std::string_view(section_name).rfind(".init", 0) == 0)
          continue;
        const char *name = elf_strptr(elf, sh.sh_link, sym.st_name);
        if (name && *name && !std::strchr(name, '.')) // no clones (f.isra.0, f.cold)
          names.emplace_back(name);
      }
    }
  }
  if (elf)
    elf_end(elf);
  close(fd);
  std::sort(names.begin(), names.end());
  names.erase(std::unique(names.begin(), names.end()), names.end());
  return names;
}

std::vector<ModuleFunctions> module_functions(const std::string &release,
                                              const std::string &module, std::string &error) {
  const auto &files = module_files(release);
  std::vector<ModuleFunctions> out;
  if (files.empty()) {
    error = "no modules of release " + release + " in " + modules_dir(release) + "/kernel";
    return out;
  }
  std::string glob = module;
  std::replace(glob.begin(), glob.end(), '-', '_');
  for (const auto &[name, path] : files)
    if (lang::glob_match(glob, name))
      out.push_back({name, ko_functions(path)});
  return out;
}

} // namespace stap::symtab
