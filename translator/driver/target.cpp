#include "driver/target.h"

#include "build/kbuild.h"
#include "remote/vm.h"

#include <fstream>
#include <sys/utsname.h>

namespace stap {
namespace {

// The target's kernel configuration: .config in the headers directory, or
// include/config/auto.conf when a package ships only that.
std::map<std::string, std::string> read_kernel_config(const std::string &build_dir) {
  std::map<std::string, std::string> cfg;
  std::ifstream in(build_dir + "/.config");
  if (!in)
    in.open(build_dir + "/include/config/auto.conf");
  std::string line;
  while (std::getline(in, line)) {
    if (line.rfind("CONFIG_", 0) != 0)
      continue;
    size_t eq = line.find('=');
    if (eq == std::string::npos)
      continue;
    std::string v = line.substr(eq + 1);
    if (v.size() >= 2 && v.front() == '"' && v.back() == '"')
      v = v.substr(1, v.size() - 2);
    cfg.emplace(line.substr(0, eq), v);
  }
  return cfg;
}

} // namespace

bool resolve_target(const Options &opts, Target &t, Diagnostics &diag) {
  std::string err;
  if (!opts.remote.empty()) {
    auto vm = remote::resolve_qemu_url(opts.remote, err);
    if (!vm) {
      diag.error(err);
      return false;
    }
    if (!opts.kernel_release.empty() && opts.kernel_release != vm->release) {
      diag.error("-r " + opts.kernel_release + " conflicts with --remote=" + opts.remote);
      return false;
    }
    t.release = vm->release;
  } else if (!opts.kernel_release.empty()) {
    t.release = opts.kernel_release;
  } else {
    utsname u{};
    uname(&u);
    t.release = u.release;
  }
  // Only pass 4 needs the build tree: its absence is reported there, so
  // that script errors come first. With --sysroot, -r RELEASE (not -r DIR)
  // is looked for in the sysroot first, as SystemTap does.
  if (!opts.sysroot.empty() && t.release.find('/') == std::string::npos)
    t.build_dir = build::kernel_build_dir(opts.sysroot + "/lib/modules/" + t.release + "/build", err);
  if (t.build_dir.empty())
    t.build_dir = build::kernel_build_dir(t.release, err);
  if (!t.build_dir.empty())
    t.config = read_kernel_config(t.build_dir);
  t.arch = t.config.count("CONFIG_X86_64") ? "x86_64"
           : t.config.count("CONFIG_X86_32") ? "i386"
                                             : "x86_64";
  return true;
}

} // namespace stap
