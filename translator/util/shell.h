// Quoting for command lines handed to /bin/sh (make recipes, guest jobs).
#pragma once
#include <string>

namespace stap {

// `s` in single quotes, safe as one shell word whatever it contains.
inline std::string shell_quote(const std::string &s) {
  std::string r = "'";
  for (char c : s)
    r += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return r + "'";
}

} // namespace stap
