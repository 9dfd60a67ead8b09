// A whole file as a string, and back (sources for Kbuild, recipes, caches).
#pragma once
#include <fstream>
#include <sstream>
#include <string>

namespace stap {

// The file's contents, or "" if it cannot be read.
inline std::string read_file(const std::string &path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

// True if `path` now holds exactly `text`.
inline bool write_file(const std::string &path, const std::string &text) {
  std::ofstream f(path, std::ios::binary | std::ios::trunc);
  f << text;
  f.close();
  return static_cast<bool>(f);
}

} // namespace stap
