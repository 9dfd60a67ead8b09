// The function names of the target kernel's loadable modules, for module
// wildcards (`module("dccp*").function("dccp_v?_connect")`). A module's
// symbols are in the guest's /proc/kallsyms only while it is loaded, so
// they are read from the .ko files of the release's modules directory
// (their ELF .symtab), once per module per process.
#pragma once

#include <string>
#include <vector>

namespace stap::symtab {

struct ModuleFunctions {
  std::string module;                 // as the kernel names it: `-` read as `_`
  std::vector<std::string> functions; // sorted, unique; no clones, no __init
};

// The modules of `release` whose name matches the glob `module`, in name
// order, each with its function names. Empty, with `error` set, when the
// release has no modules directory.
std::vector<ModuleFunctions> module_functions(const std::string &release,
                                              const std::string &module, std::string &error);

// The function names of one .ko file (exposed for tests).
std::vector<std::string> ko_functions(const std::string &path);

} // namespace stap::symtab
