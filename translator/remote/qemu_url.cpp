// Which kernels a guest can boot, and qemu://[RELEASE] URLs naming one.
#include "remote/vm.h"
#include "remote/vm_files.h"

#include <algorithm>
#include <cstring>
#include <dirent.h>
#include <fstream>

namespace stap::remote {
namespace {

std::vector<std::string> list_dir(const std::string &dir) {
  std::vector<std::string> names;
  if (DIR *d = opendir(dir.c_str())) {
    while (dirent *e = readdir(d))
      if (e->d_name[0] != '.')
        names.push_back(e->d_name);
    closedir(d);
  }
  return names;
}

// x86_64 or i386, from the kernel's own configuration; "" if unknown.
std::string arch_of_build_dir(const std::string &build_dir) {
  std::ifstream in(build_dir + "/.config");
  std::string line;
  while (std::getline(in, line)) {
    if (line == "CONFIG_X86_64=y")
      return "x86_64";
    if (line == "CONFIG_X86_32=y")
      return "i386";
  }
  return "";
}

// A target for `release` if its image, modules and headers are all there.
std::optional<VmTarget> complete_target(const std::string &release,
                                        const std::string &vmlinuz,
                                        const std::string &modules_dir) {
  VmTarget t;
  t.release = release;
  t.vmlinuz = vmlinuz;
  t.modules_dir = modules_dir;
  t.build_dir = vm_kernel_build_dir(release);
  if (!path_exists(vmlinuz) || !is_directory(modules_dir + "/kernel") ||
      !is_directory(t.build_dir))
    return std::nullopt;
  t.arch = arch_of_build_dir(t.build_dir);
  if (t.arch.empty())
    return std::nullopt;
  return t;
}

std::string installed_list(const std::vector<VmTarget> &targets) {
  if (targets.empty())
    return "none (scripts/setup installs them)";
  std::string s;
  for (const auto &t : targets)
    s += (s.empty() ? "" : ", ") + t.release + " (" + t.arch + ")";
  return s;
}

} // namespace

std::string vm_kernel_build_dir(const std::string &release) {
  return "/lib/modules/" + release + "/build";
}

std::vector<VmTarget> installed_vm_targets() {
  std::vector<VmTarget> targets;
  // Kernels installed the normal way: the host's architecture.
  for (const auto &name : list_dir("/boot")) {
    if (name.rfind("vmlinuz-", 0) != 0)
      continue;
    std::string rel = name.substr(std::strlen("vmlinuz-"));
    if (auto t = complete_target(rel, "/boot/" + name, "/lib/modules/" + rel))
      targets.push_back(*t);
  }
  // Kernels unpacked by scripts/setup (other architectures).
  std::string kernels = vm_cache_dir() + "/kernels";
  for (const auto &rel : list_dir(kernels)) {
    std::string root = kernels + "/" + rel;
    if (auto t = complete_target(rel, root + "/boot/vmlinuz-" + rel, root + "/lib/modules/" + rel))
      targets.push_back(*t);
  }
  std::sort(targets.begin(), targets.end(), [](const VmTarget &a, const VmTarget &b) {
    return strverscmp(a.release.c_str(), b.release.c_str()) < 0;
  });
  return targets;
}

std::optional<VmTarget> default_vm_target(const std::string &arch) {
  auto targets = installed_vm_targets();
  for (auto it = targets.rbegin(); it != targets.rend(); ++it)
    if (it->arch == arch)
      return *it;
  return std::nullopt;
}

std::optional<VmTarget> resolve_qemu_url(const std::string &url, std::string &error) {
  const std::string scheme = "qemu://";
  if (url.rfind(scheme, 0) != 0) {
    error = "unsupported remote '" + url + "': expected qemu://[RELEASE]";
    return std::nullopt;
  }
  std::string release = url.substr(scheme.size());
  while (!release.empty() && release.back() == '/')
    release.pop_back();
  auto targets = installed_vm_targets();
  if (release.empty()) {
    if (auto t = default_vm_target("x86_64"))
      return t;
    error = "qemu://: no x86_64 kernel with headers is installed; installed: " +
            installed_list(targets);
    return std::nullopt;
  }
  for (const auto &t : targets)
    if (t.release == release)
      return t;
  error = "qemu://" + release + ": kernel '" + release +
          "' is not installed (needs its image, modules and headers); installed: " +
          installed_list(targets);
  return std::nullopt;
}

} // namespace stap::remote
