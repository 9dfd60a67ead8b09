#include "driver/table_cache.h"

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <unistd.h>

namespace stap {

std::string table_cache_path(const std::string &dir, const std::string &key,
                             const std::string &ext) {
  return dir + "/" + key.substr(0, 2) + "/" + key + "." + ext;
}

bool read_table_cache(const std::string &path, std::string &header, std::vector<uint8_t> &bytes) {
  std::ifstream in(path, std::ios::binary);
  if (!in || !std::getline(in, header))
    return false;
  bytes.assign(std::istreambuf_iterator<char>(in), {});
  return true;
}

void write_table_cache(const std::string &path, const std::string &header,
                       const std::vector<uint8_t> &bytes) {
  std::error_code ec;
  std::filesystem::create_directories(std::filesystem::path(path).parent_path(), ec);
  std::string tmp = path + ".tmp" + std::to_string(getpid());
  {
    std::ofstream out(tmp, std::ios::binary);
    out << header << "\n";
    out.write(reinterpret_cast<const char *>(bytes.data()),
              static_cast<std::streamsize>(bytes.size()));
    if (!out) {
      std::remove(tmp.c_str());
      return;
    }
  }
  std::filesystem::rename(tmp, path, ec);
  if (ec)
    std::remove(tmp.c_str());
}

} // namespace stap
