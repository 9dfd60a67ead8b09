#include "remote/vm_files.h"

#include "remote/vm.h"
#include "util/data_dir.h"
#include "util/run_child.h"

#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <sstream>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

namespace stap::remote {

std::string vm_cache_dir() {
  const char *env = std::getenv("STAP_VM_CACHE");
  return env && *env ? env : "/var/cache/stap-vm";
}

std::string vm_scripts_dir() {
  const char *env = std::getenv("STAP_VM_SCRIPTS");
  return env && *env ? env : data_dir("vm", STAP_SCRIPTS_DIR "/vm");
}

bool path_exists(const std::string &path) {
  struct stat st;
  return stat(path.c_str(), &st) == 0;
}

bool is_directory(const std::string &path) {
  struct stat st;
  return stat(path.c_str(), &st) == 0 && S_ISDIR(st.st_mode);
}

std::string read_text_file(const std::string &path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

void write_text_file(const std::string &path, const std::string &text) {
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  out << text;
  out.close();
  if (!out)
    throw VmError("cannot write " + path + ": " + std::strerror(errno));
}

std::string run_for_output(const std::vector<std::string> &argv) {
  ChildResult r = run_child(argv, false);
  if (r.status != 0)
    throw VmError(argv[0] + " failed");
  std::string out = std::move(r.output);
  while (!out.empty() && out.back() == '\n')
    out.pop_back();
  return out;
}

} // namespace stap::remote
