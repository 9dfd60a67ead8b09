// Strict number parsing for command-line values (stap and staprun).
#pragma once
#include <cerrno>
#include <cstdlib>

namespace stap {

// A whole decimal number in [lo, hi], nothing else in `s`.
inline bool parse_long(const char *s, long lo, long hi, long &out) {
  char *end = nullptr;
  errno = 0;
  long v = std::strtol(s, &end, 10);
  if (errno || !*s || *end || v < lo || v > hi)
    return false;
  out = v;
  return true;
}

} // namespace stap
