// A 128-bit content hash for cache keys and integrity checks (FNV-1a):
// fast and dependency-free. Caches are not a security boundary, so a
// non-cryptographic hash is enough to tell inputs apart.
#pragma once
#include <string>
#include <string_view>

namespace stap::build {

class ContentHash {
public:
  // Each field is length-prefixed, so ("ab","c") and ("a","bc") differ.
  ContentHash &add(std::string_view field);
  // The contents of a file, or a marker for a missing one.
  ContentHash &add_file(const std::string &path);
  // 32 lowercase hex digits.
  std::string hex() const;

private:
  void mix(std::string_view bytes);
  unsigned __int128 state_ = (static_cast<unsigned __int128>(0x6c62272e07bb0142ULL) << 64) |
                             0x62b821756295c58dULL;
};

// The hash of one file's contents ("" if it cannot be read).
std::string hash_file(const std::string &path);

} // namespace stap::build
