// The symbols a kernel exports to modules (EXPORT_SYMBOL*), for
// `kernel.function(PATTERN).exported` and `module(M).function(P).exported`
// when there is no DWARF to look for `__ksymtab_NAME` in: the build tree's
// Module.symvers lists every export of vmlinux and of each in-tree module.
#pragma once

#include <map>
#include <set>
#include <string>

namespace stap::symtab {

// module name ("vmlinux" for the kernel; '-' spelled '_', as the kernel
// names loaded modules) -> the symbols it exports.
using ExportedSymbols = std::map<std::string, std::set<std::string>>;

// Parses Module.symvers text: "CRC\tSYMBOL\tMODULE_PATH\tEXPORT_KIND[\tNS]".
ExportedSymbols parse_module_symvers(const std::string &text);

// BUILD_DIR/Module.symvers, read once per process and build tree (nullptr,
// with `error` set, when it cannot be read).
const ExportedSymbols *exported_symbols(const std::string &build_dir, std::string &error);

} // namespace stap::symtab
