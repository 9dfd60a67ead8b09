#include "command.h"

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <sys/wait.h>
#include <unistd.h>

namespace stap::testing {


static std::string slurp(const std::string &path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

CommandResult run_command(const std::string &cmdline, const std::string &cwd) {
  char dir[] = "/tmp/stap-test-XXXXXX";
  CommandResult r;
  if (!mkdtemp(dir))
    return r;
  std::string d = dir;
  std::string full = "cd " + shell_quote(cwd) + " && (" + cmdline + ") </dev/null >" + d +
                     "/out 2>" + d + "/err";
  int status = std::system(full.c_str());
  r.status = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  r.out = slurp(d + "/out");
  r.err = slurp(d + "/err");
  std::filesystem::remove_all(d);
  return r;
}

} // namespace stap::testing
