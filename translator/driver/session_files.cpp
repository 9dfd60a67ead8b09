#include "driver/session_files.h"

#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <functional>

namespace stap {

SessionFiles::SessionFiles(const Options &opts, const std::string &c_source,
                           const Target &target, Diagnostics &diag)
    : opts_(opts) {
  const char *tmp = std::getenv("TMPDIR");
  std::string templ = std::string(tmp && *tmp ? tmp : "/tmp") + "/stapXXXXXX";
  if (!mkdtemp(templ.data())) {
    diag.error("cannot create a temporary directory from '" + templ + "'");
    return;
  }
  dir_ = templ;
  if (!opts.module_name.empty()) {
    name_ = opts.module_name;
  } else {
    char hex[17];
    std::snprintf(hex, sizeof(hex), "%016zx",
                  std::hash<std::string>{}(c_source + "\n" + target.release));
    name_ = std::string("stap_") + hex;
  }
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

std::string SessionFiles::publish_module(const std::string &built, bool final_pass) {
  if (opts_.module_name.empty() && !final_pass)
    return built;
  std::string dest = std::filesystem::current_path().string() + "/" + name_ + ".ko";
  std::error_code ec;
  std::filesystem::copy_file(built, dest, std::filesystem::copy_options::overwrite_existing,
                             ec);
  return ec ? built : dest;
}

} // namespace stap
