#include "tracequery/catalog.h"

#include "dwarf/type_reader.h"
#include "tracequery/query_objects.h"

#include <algorithm>
#include <cstring>
#include <dwarf.h>
#include <elfutils/libdw.h>
#include <elfutils/libdwfl.h>
#include <fcntl.h>
#include <gelf.h>
#include <set>
#include <unistd.h>

namespace stap::tracequery {
namespace {

// "stp_tq__sched__stpname__sched_switch" -> ("sched", "sched_switch").
bool split_function_name(const char *fn, std::string &system, std::string &name) {
  size_t plen = std::strlen(function_prefix);
  if (std::strncmp(fn, function_prefix, plen) != 0)
    return false;
  std::string rest = fn + plen;
  size_t sep = rest.find(name_separator);
  if (sep == std::string::npos || sep == 0)
    return false;
  system = rest.substr(0, sep);
  name = rest.substr(sep + std::strlen(name_separator));
  // A header without TRACE_SYSTEM leaves the macro's name.
  return !name.empty() && system != "TRACE_SYSTEM";
}

// The query functions named in an object's symbol table.
bool read_symbols(const std::string &path, std::vector<Tracepoint> &out, std::string &error) {
  int fd = open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) {
    error = "cannot open " + path;
    return false;
  }
  Elf *elf = elf_begin(fd, ELF_C_READ_MMAP, nullptr);
  if (!elf) {
    close(fd);
    error = path + ": not an ELF file";
    return false;
  }
  Elf_Scn *scn = nullptr;
  while ((scn = elf_nextscn(elf, scn))) {
    GElf_Shdr sh;
    if (!gelf_getshdr(scn, &sh) || sh.sh_type != SHT_SYMTAB || !sh.sh_entsize)
      continue;
    Elf_Data *data = elf_getdata(scn, nullptr);
    size_t n = data ? sh.sh_size / sh.sh_entsize : 0;
    for (size_t i = 0; i < n; ++i) {
      GElf_Sym sym;
      if (!gelf_getsym(data, static_cast<int>(i), &sym) || GELF_ST_TYPE(sym.st_info) != STT_FUNC)
        continue;
      const char *s = elf_strptr(elf, sh.sh_link, sym.st_name);
      Tracepoint tp;
      if (s && split_function_name(s, tp.system, tp.name)) {
        tp.object = path;
        out.push_back(std::move(tp));
      }
    }
  }
  elf_end(elf);
  close(fd);
  return true;
}

} // namespace

std::unique_ptr<Catalog> Catalog::from_objects(const std::vector<std::string> &objects,
                                               std::string &error) {
  elf_version(EV_CURRENT);
  auto c = std::make_unique<Catalog>();
  for (const std::string &o : objects)
    if (!read_symbols(o, c->tracepoints_, error))
      return nullptr;
  std::stable_sort(c->tracepoints_.begin(), c->tracepoints_.end(),
                   [](const Tracepoint &a, const Tracepoint &b) {
                     return a.system != b.system ? a.system < b.system : a.name < b.name;
                   });
  // A header included by another declares its tracepoints there too.
  std::set<std::string> seen;
  std::vector<Tracepoint> unique;
  for (Tracepoint &t : c->tracepoints_)
    if (seen.insert(t.name).second)
      unique.push_back(std::move(t));
  c->tracepoints_ = std::move(unique);
  return c;
}

bool Catalog::has_system(const std::string &system) const {
  return std::any_of(tracepoints_.begin(), tracepoints_.end(),
                     [&](const Tracepoint &t) { return t.system == system; });
}

const Catalog *Catalogs::of(const Target &target, const std::string &system, bool verbose,
                            std::string &error) {
  std::string key = target.release + "/" + target.arch + "/" + system;
  if (auto it = catalogs_.find(key); it != catalogs_.end())
    return it->second.get();
  std::vector<std::string> objects = query_objects(target, system, verbose, error);
  if (objects.empty())
    return nullptr;
  auto c = Catalog::from_objects(objects, error);
  if (!c)
    return nullptr;
  // The header named after the system did not declare it: all of them.
  if (!system.empty() && !c->has_system(system))
    return of(target, "", verbose, error);
  return (catalogs_[key] = std::move(c)).get();
}

const TracepointProto *Catalog::proto(const Tracepoint &tp, std::string &error) const {
  ObjectInfo &info = objects_[tp.object];
  if (!info.loaded) {
    info.loaded = true;
    load_object(tp.object, info);
  }
  auto it = info.protos.find(tp.name);
  if (it == info.protos.end()) {
    error = info.error.empty() ? "no description of tracepoint " + tp.name + " in " + tp.object
                               : info.error;
    return nullptr;
  }
  return &it->second;
}

void Catalog::load_object(const std::string &path, ObjectInfo &info) const {
  // The objects are relocatable: libdwfl applies their .rela.debug_*
  // (string and type offsets), which plain libdw would read as zeros.
  static const Dwfl_Callbacks callbacks = {
      .find_elf = nullptr,
      .find_debuginfo = dwfl_standard_find_debuginfo,
      .section_address = dwfl_offline_section_address,
      .debuginfo_path = nullptr,
  };
  Dwfl *dwfl = dwfl_begin(&callbacks);
  Dwfl_Module *mod = dwfl ? dwfl_report_offline(dwfl, "", path.c_str(), -1) : nullptr;
  Dwarf_Addr bias = 0;
  Dwarf *dw = nullptr;
  if (mod && dwfl_report_end(dwfl, nullptr, nullptr) == 0)
    dw = dwfl_module_getdwarf(mod, &bias);
  if (!dw) {
    info.error = "cannot read the DWARF of " + path;
    if (dwfl)
      dwfl_end(dwfl);
    return;
  }
  dwarf::TypeReader reader;
  info.types = reader.table();
  Dwarf_Off off = 0, next;
  size_t header_size;
  while (dwarf_nextcu(dw, off, &next, &header_size, nullptr, nullptr, nullptr) == 0) {
    Dwarf_Die cu, die;
    if (dwarf_offdie(dw, off + header_size, &cu) && dwarf_child(&cu, &die) == 0)
      do {
        if (dwarf_tag(&die) != DW_TAG_subprogram)
          continue;
        const char *fn = dwarf_diename(&die);
        std::string system, name;
        if (!fn || !split_function_name(fn, system, name))
          continue;
        TracepointProto p;
        p.types = info.types;
        Dwarf_Die c;
        if (dwarf_child(&die, &c) == 0)
          do {
            if (dwarf_tag(&c) == DW_TAG_formal_parameter) {
              const char *pn = dwarf_diename(&c);
              p.args.push_back({pn ? pn : "", reader.type_attr(&c)});
            }
          } while (dwarf_siblingof(&c, &c) == 0);
        info.protos.emplace(name, std::move(p));
      } while (dwarf_siblingof(&die, &die) == 0);
    off = next;
  }
  dwfl_end(dwfl);
}

} // namespace stap::tracequery
