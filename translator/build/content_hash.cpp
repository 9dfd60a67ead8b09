#include "build/content_hash.h"

#include <fstream>
#include <sstream>

namespace stap::build {
namespace {

// 2^88 + 2^8 + 0x3b, the 128-bit FNV prime.
const unsigned __int128 kPrime = (static_cast<unsigned __int128>(1) << 88) + 0x13b;

bool read_whole(const std::string &path, std::string &out) {
  std::ifstream f(path, std::ios::binary);
  if (!f)
    return false;
  std::ostringstream ss;
  ss << f.rdbuf();
  out = ss.str();
  return true;
}

} // namespace

void ContentHash::mix(std::string_view bytes) {
  for (unsigned char b : bytes) {
    state_ ^= b;
    state_ *= kPrime;
  }
}

ContentHash &ContentHash::add(std::string_view field) {
  mix(std::to_string(field.size()) + ":");
  mix(field);
  return *this;
}

ContentHash &ContentHash::add_file(const std::string &path) {
  std::string text;
  if (read_whole(path, text))
    add("file").add(text);
  else
    add("missing");
  return *this;
}

std::string ContentHash::hex() const {
  static const char digits[] = "0123456789abcdef";
  std::string r(32, '0');
  unsigned __int128 v = state_;
  for (int i = 31; i >= 0; --i, v >>= 4)
    r[i] = digits[static_cast<unsigned>(v & 0xf)];
  return r;
}

std::string hash_file(const std::string &path) {
  std::string text;
  if (!read_whole(path, text))
    return {};
  return ContentHash().add(text).hex();
}

} // namespace stap::build
