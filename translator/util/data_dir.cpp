#include "util/data_dir.h"

#include <sys/stat.h>
#include <unistd.h>

namespace stap {

std::string self_dir() {
  char self[4096];
  ssize_t n = readlink("/proc/self/exe", self, sizeof(self) - 1);
  if (n <= 0)
    return ".";
  std::string path(self, static_cast<size_t>(n));
  return path.substr(0, path.find_last_of('/'));
}

std::string data_dir(const std::string &name, const std::string &build_tree_default) {
  std::string installed = self_dir() + "/../share/stap/" + name;
  struct stat st;
  if (stat(installed.c_str(), &st) == 0 && S_ISDIR(st.st_mode))
    return installed;
  return build_tree_default;
}

} // namespace stap
