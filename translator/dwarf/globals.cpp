#include "dwarf/globals.h"

#include "codegen/emitter.h"
#include "dwarf/function_pattern.h"
#include "dwarf/scope.h"
#include "dwarf/type_reader.h"

#include <dwarf.h>

namespace stap::dwarf {

std::optional<std::string> kernel_static_address(DebugFile &file, const std::string &module,
                                                 uint64_t addr, std::string &why) {
  if (!module.empty()) {
    // Its section's load address, from the kernel (runtime/module_sections.c),
    // plus the offset in it.
    std::string section = file.section_at(addr);
    auto start = file.section_start(addr);
    if (section.empty() || !start) {
      why = "static data at 0x" + std::to_string(addr) + " is in no section of " + file.path();
      return std::nullopt;
    }
    return "(stp_module_section(" + codegen::c_string_literal(module) + ", " +
           codegen::c_string_literal(section) + ") + " + std::to_string(addr - *start) + "UL)";
  }
  // vmlinux: moved by the KASLR offset, which is how far an exported
  // function the probe module can name (_printk) moved.
  auto anchor = file.symbol_address("_printk");
  if (!anchor) {
    why = "no _printk in the kernel's symbols to relocate static data by";
    return std::nullopt;
  }
  char buf[128];
  snprintf(buf, sizeof buf, "(0x%llxUL + ((unsigned long)&_printk - 0x%llxUL))",
           static_cast<unsigned long long>(addr), static_cast<unsigned long long>(*anchor));
  return std::string(buf);
}

std::optional<debuginfo::TargetVar> find_global(DebugFile &file, const std::string &module,
                                                const std::string &spec, const arch::Arch &arch,
                                                std::string &why) {
  ScopeOptions opts(arch);
  opts.address = [&](uint64_t a, std::string &w) { return kernel_static_address(file, module, a, w); };
  return find_global(file, spec, opts, why);
}

std::optional<debuginfo::TargetVar> find_global(DebugFile &file, const std::string &spec,
                                                const ScopeOptions &opts, std::string &why) {
  size_t at = spec.find('@');
  std::string name = spec.substr(0, at);
  std::string file_pattern = at == std::string::npos ? "" : spec.substr(at + 1);
  if (!file.dwarf()) {
    why = "no DWARF in " + file.path();
    return std::nullopt;
  }
  Dwarf_Off off = 0, next;
  size_t header_size;
  while (dwarf_nextcu(file.dwarf(), off, &next, &header_size, nullptr, nullptr, nullptr) == 0) {
    Dwarf_Die cu, child;
    if (dwarf_offdie(file.dwarf(), off + header_size, &cu) && dwarf_child(&cu, &child) == 0)
      do {
        const char *n = dwarf_diename(&child);
        if (dwarf_tag(&child) != DW_TAG_variable || !n || name != n ||
            !(dwarf_hasattr(&child, DW_AT_location) || dwarf_hasattr(&child, DW_AT_const_value)))
          continue;
        const char *f = dwarf_decl_file(&child);
        if (!file_pattern.empty() && !(f && file_matches(file_pattern, f)))
          continue;
        debuginfo::TargetVar v;
        v.name = name;
        v.type = file.types().type_attr(&child);
        v.loc = variable_location(file, &child, nullptr, 0, opts, why);
        if (v.loc.kind == debuginfo::VarLocation::Unavailable)
          return std::nullopt;
        return v;
      } while (dwarf_siblingof(&child, &child) == 0);
    off = next;
  }
  why = "no global variable '" + name + "'" +
        (file_pattern.empty() ? "" : " in a file matching '" + file_pattern + "'") + " in " +
        file.path();
  return std::nullopt;
}

} // namespace stap::dwarf
