// libFuzzer target for passes 1 and 2: any bytes are a user script, run
// through `stap -p2` as the command line would (tapsets, probe resolution
// against the newest installed x86_64 kernel, symbol resolution, type
// inference, the checks). It must not crash, leak, hang or trip a
// sanitizer; errors are the expected answer to most inputs.
//
// The first byte picks the options: bit 0 guru mode (-g), bit 1 -u (no
// elision), bit 2 two script arguments, bit 3 -w, bit 4 --skip-badvars.
#include "driver/driver.h"

#include <dirent.h>
#include <cstdlib>
#include <iostream>
#include <sstream>
#include <string>
#include <sys/stat.h>
#include <vector>

namespace {

std::string kernel_release;

// The newest kernel with a build tree whose name ends in -amd64, or
// $FUZZ_KERNEL: the probes resolve against what the real command would use.
std::string pick_kernel() {
  if (const char *k = std::getenv("FUZZ_KERNEL"))
    return k;
  std::string best;
  if (DIR *d = opendir("/lib/modules")) {
    while (dirent *e = readdir(d)) {
      std::string n = e->d_name;
      struct stat st;
      if (n.size() > 6 && n.compare(n.size() - 6, 6, "-amd64") == 0 &&
          stat(("/lib/modules/" + n + "/build").c_str(), &st) == 0 && n > best)
        best = n;
    }
    closedir(d);
  }
  return best;
}

} // namespace

extern "C" int LLVMFuzzerInitialize(int *, char ***) {
  kernel_release = pick_kernel();
  // No module cache, tables cache or session files from a pass-2 run, but
  // keep anything stap might write away from the user's home.
  setenv("SYSTEMTAP_DIR", "/tmp/stap-elaborate-fuzz", 1);
  return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  if (size == 0)
    return 0;
  uint8_t mode = data[0];
  std::string script(reinterpret_cast<const char *>(data + 1), size - 1);
  // -e takes a C string: a NUL would cut the script, as on a real command line.
  script = script.c_str();

  std::vector<std::string> args = {"stap", "-p2", "-e", script};
  if (!kernel_release.empty())
    args.insert(args.begin() + 1, {"-r", kernel_release});
  if (mode & 1)
    args.push_back("-g");
  if (mode & 2)
    args.push_back("-u");
  if (mode & 8)
    args.push_back("-w");
  if (mode & 16)
    args.push_back("--skip-badvars");
  if (mode & 4) { // script arguments come last on the command line
    args.push_back("kernel.function(\"vfs_read\")");
    args.push_back("7");
  }
  std::vector<char *> argv;
  for (std::string &a : args)
    argv.push_back(a.data());
  argv.push_back(nullptr);

  // The listing and diagnostics go nowhere: only crashes matter here.
  std::ostringstream sink;
  std::streambuf *out = std::cout.rdbuf(sink.rdbuf());
  std::streambuf *err = std::cerr.rdbuf(sink.rdbuf());
  stap::run_stap(static_cast<int>(argv.size()) - 1, argv.data());
  std::cout.rdbuf(out);
  std::cerr.rdbuf(err);
  return 0;
}
