// Writing a whole file from a string (sources for Kbuild, recipes).
#pragma once
#include <fstream>
#include <string>

namespace stap {

// True if `path` now holds exactly `text`.
inline bool write_file(const std::string &path, const std::string &text) {
  std::ofstream f(path, std::ios::binary | std::ios::trunc);
  f << text;
  f.close();
  return static_cast<bool>(f);
}

} // namespace stap
