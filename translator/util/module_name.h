// The name a kernel module goes by, from its file's path or name. Header
// only: staprun (and its static 32-bit build) uses it too.
#pragma once
#include <string>

namespace stap {

// The base name without .ko, '-' spelled '_' (as the kernel names loaded
// modules: /proc/modules, /sys/module).
inline std::string kernel_module_name(const std::string &path_or_name) {
  std::string name = path_or_name.substr(path_or_name.rfind('/') + 1);
  if (name.size() > 3 && name.compare(name.size() - 3, 3, ".ko") == 0)
    name.resize(name.size() - 3);
  for (char &c : name)
    if (c == '-')
      c = '_';
  return name;
}

} // namespace stap
