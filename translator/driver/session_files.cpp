#include "driver/session_files.h"

#include <cstdio>
#include <cstdlib>
#include <filesystem>

namespace stap {

SessionFiles::SessionFiles(const Options &opts, const std::string &module_name,
                           Diagnostics &diag)
    : opts_(opts), name_(module_name) {
  const char *tmp = std::getenv("TMPDIR");
  std::string templ = std::string(tmp && *tmp ? tmp : "/tmp") + "/stapXXXXXX";
  if (!mkdtemp(templ.data())) {
    diag.error("cannot create a temporary directory from '" + templ + "'");
    return;
  }
  dir_ = templ;
}

SessionFiles::~SessionFiles() {
  if (dir_.empty())
    return;
  if (opts_.keep_tmpdir) {
    std::fprintf(stderr, "Keeping temporary directory \"%s\"\n", dir_.c_str());
    return;
  }
  std::error_code ec;
  std::filesystem::remove_all(dir_, ec);
}

std::string SessionFiles::publish_module(const std::string &built, const std::string &cached,
                                         bool final_pass) {
  if (opts_.module_name.empty() && (!final_pass || !cached.empty()))
    return final_pass ? cached : built;
  std::string dest = std::filesystem::current_path().string() + "/" + name_ + ".ko";
  std::error_code ec;
  std::filesystem::copy_file(built, dest, std::filesystem::copy_options::overwrite_existing,
                             ec);
  return ec ? built : dest;
}

} // namespace stap
