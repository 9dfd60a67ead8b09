// Parses "#define __NR_name number" lines; see syscall_names.h.
#include "syscall_names.h"

#include <fstream>
#include <map>
#include <sstream>

namespace ustack {

namespace {

std::map<std::string, long> load(const char *path) {
  std::map<std::string, long> table;
  std::ifstream in(path);
  std::string line;
  while (std::getline(in, line)) {
    std::istringstream words(line);
    std::string define, name;
    long number;
    if (words >> define >> name >> number && define == "#define" &&
        name.rfind("__NR_", 0) == 0)
      table[name.substr(5)] = number;
  }
  return table;
}

} // namespace

std::optional<long> syscall_number(Abi abi, const std::string &name) {
  static const auto x86_64 =
      load("/usr/include/x86_64-linux-gnu/asm/unistd_64.h");
  static const auto i386 = load("/usr/include/x86_64-linux-gnu/asm/unistd_32.h");
  const auto &table = abi == Abi::X86_64 ? x86_64 : i386;
  auto it = table.find(name);
  if (it == table.end())
    return std::nullopt;
  return it->second;
}

} // namespace ustack
