#include "symtab/exported_symbols.h"

#include "util/module_name.h"

#include <fstream>
#include <mutex>
#include <sstream>

namespace stap::symtab {

ExportedSymbols parse_module_symvers(const std::string &text) {
  ExportedSymbols out;
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);) {
    std::istringstream fields(line);
    std::string crc, symbol, module;
    if (!std::getline(fields, crc, '\t') || !std::getline(fields, symbol, '\t') ||
        !std::getline(fields, module, '\t') || symbol.empty() || module.empty())
      continue;
    out[module == "vmlinux" ? module : stap::kernel_module_name(module)].insert(symbol);
  }
  return out;
}

const ExportedSymbols *exported_symbols(const std::string &build_dir, std::string &error) {
  static std::mutex mu;
  static std::map<std::string, ExportedSymbols> loaded;
  std::lock_guard<std::mutex> lock(mu);
  if (auto it = loaded.find(build_dir); it != loaded.end())
    return &it->second;
  std::string path = build_dir + "/Module.symvers";
  std::ifstream in(path);
  if (!in) {
    error = "cannot read " + path;
    return nullptr;
  }
  std::ostringstream text;
  text << in.rdbuf();
  return &(loaded[build_dir] = parse_module_symvers(text.str()));
}

} // namespace stap::symtab
