#include "probes/program_path.h"

namespace stap::probes {

std::optional<Sysroot::File> find_program(const Sysroot &sysroot, const std::string &name,
                                          bool search_path) {
  if (name.find('/') != std::string::npos || !search_path)
    return sysroot.resolve(name);
  // a root's PATH, in its order (Debian's /etc/profile for root)
  for (const char *dir :
       {"/usr/local/sbin", "/usr/local/bin", "/usr/sbin", "/usr/bin", "/sbin", "/bin"})
    if (auto f = sysroot.resolve(std::string(dir) + "/" + name))
      return f;
  return std::nullopt;
}

} // namespace stap::probes
