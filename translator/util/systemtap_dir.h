// The per-user directory SystemTap users know: $SYSTEMTAP_DIR, else
// $HOME/.systemtap (/tmp/.systemtap without a HOME). The module cache and
// the kernel symbol files live below it.
#pragma once
#include <cstdlib>
#include <string>

namespace stap {

inline std::string systemtap_dir() {
  if (const char *d = std::getenv("SYSTEMTAP_DIR"); d && *d)
    return d;
  const char *home = std::getenv("HOME");
  return std::string(home && *home ? home : "/tmp") + "/.systemtap";
}

} // namespace stap
