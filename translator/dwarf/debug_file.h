// One ELF file with DWARF, opened with libdwfl: a kernel module (.ko,
// relocatable: dwfl lays its sections out at distinct addresses), vmlinux,
// or a user program or library. Nothing here is kernel-specific, so
// process() probes use it as module() and kernel probes do.
//
// Addresses in this API are DWARF addresses (what DW_AT_low_pc and the
// line table say, after dwfl's relocation of a .ko); symbol_at() turns one
// into "symbol+offset", which is how a kernel probe names it at run time.
#pragma once
#include "debuginfo/types.h"

#include <elfutils/libdw.h>
#include <elfutils/libdwfl.h>

#include <map>
#include <memory>
#include <optional>
#include <string>

namespace stap::dwarf {

class TypeReader;

struct SymbolOffset {
  std::string name;    // the ELF symbol containing the address
  uint64_t offset = 0; // from the symbol's start
  uint64_t symbol_addr = 0; // the symbol's DWARF address
};

class DebugFile {
public:
  // The file at `path`, or nullptr with `err` set. A file without DWARF
  // opens (has_dwarf() is false) so that callers can say why.
  // `debug_path`: a separate file with its DWARF (a program's debuginfo
  // from /usr/lib/debug), "" to read the DWARF of `path` itself.
  static std::unique_ptr<DebugFile> open(const std::string &path, std::string &err,
                                         const std::string &debug_path = "");
  ~DebugFile();
  DebugFile(const DebugFile &) = delete;
  DebugFile &operator=(const DebugFile &) = delete;

  const std::string &path() const { return path_; }
  bool has_dwarf() const { return dwarf_ != nullptr; }
  bool relocatable() const { return relocatable_; } // a .ko (ET_REL)
  Dwarf *dwarf() const { return dwarf_; }
  Dwfl_Module *module() const { return module_; }
  // dwfl address = DWARF address + bias
  Dwarf_Addr bias() const { return bias_; }

  // The function or object symbol that contains DWARF address `addr`.
  std::optional<SymbolOffset> symbol_at(Dwarf_Addr addr) const;
  // The ELF section name holding DWARF address `addr` (".text", ".bss").
  std::string section_at(Dwarf_Addr addr) const;
  // The DWARF address where that section starts.
  std::optional<Dwarf_Addr> section_start(Dwarf_Addr addr) const;
  // A symbol's DWARF address by name (functions and objects).
  std::optional<Dwarf_Addr> symbol_address(const std::string &name) const;

  // The C types of this file's DWARF, filled as scopes ask for them.
  TypeReader &types();
  // The call frame information (.debug_frame, else .eh_frame) and its bias.
  Dwarf_CFI *cfi(Dwarf_Addr &cfi_bias) const;

private:
  DebugFile() = default;
  std::string path_;
  std::string debug_path_; // the separate debuginfo file, if any
  Dwfl *dwfl_ = nullptr;
  Dwfl_Module *module_ = nullptr;
  Dwarf *dwarf_ = nullptr;
  Dwarf_Addr bias_ = 0;
  bool relocatable_ = false;
  std::unique_ptr<TypeReader> types_;
};

} // namespace stap::dwarf
