#include "dwarf/kernel_debuginfo.h"

#include "remote/vm.h"

#include <algorithm>
#include <filesystem>

namespace stap::dwarf {
namespace fs = std::filesystem;

std::string module_name_of(const std::string &path) {
  std::string name = fs::path(path).filename().string();
  if (name.size() > 3 && name.compare(name.size() - 3, 3, ".ko") == 0)
    name.resize(name.size() - 3);
  std::replace(name.begin(), name.end(), '-', '_');
  return name;
}

namespace {

bool is_ko_path(const std::string &s) {
  return s.size() > 3 && s.compare(s.size() - 3, 3, ".ko") == 0;
}

// NAME.ko (or NAME with '_' and '-' exchanged) anywhere below `dir`.
std::vector<std::string> find_ko(const std::string &dir, const std::string &name) {
  std::vector<std::string> out;
  std::error_code ec;
  for (fs::recursive_directory_iterator i(dir, ec), end; !ec && i != end; i.increment(ec))
    if (i->path().extension() == ".ko" && module_name_of(i->path().string()) == name)
      out.push_back(i->path().string());
  return out;
}

std::string modules_dir(const Target &t) {
  for (const auto &vm : remote::installed_vm_targets())
    if (vm.release == t.release)
      return vm.modules_dir;
  return "/lib/modules/" + t.release;
}

} // namespace

KernelDebuginfo::KernelDebuginfo(const Target &target, std::vector<std::string> d_objects)
    : target_(target), d_objects_(std::move(d_objects)) {}

DebugFile *KernelDebuginfo::open_first(const std::string &key, const std::vector<std::string> &paths,
                                       std::string &why) {
  auto it = open_.find(key);
  if (it != open_.end()) {
    why = why_[key];
    return it->second.get();
  }
  std::unique_ptr<DebugFile> found;
  std::string tried;
  for (const std::string &p : paths) {
    std::error_code ec;
    if (!fs::is_regular_file(p, ec))
      continue;
    std::string err;
    auto f = DebugFile::open(p, err);
    if (f && f->has_dwarf()) {
      found = std::move(f);
      break;
    }
    tried += (tried.empty() ? "" : ", ") + p + (f ? " has no DWARF" : ": " + err);
  }
  if (!found)
    why = tried.empty() ? "" : tried;
  why_[key] = why;
  return (open_[key] = std::move(found)).get();
}

DebugFile *KernelDebuginfo::module(const std::string &name, std::string &why) {
  std::vector<std::string> paths;
  if (name.find('/') != std::string::npos) {
    paths.push_back(name);
  } else {
    for (const std::string &d : d_objects_)
      if (is_ko_path(d) && module_name_of(d) == name)
        paths.push_back(d);
    for (const std::string &p : find_ko("/usr/lib/debug/lib/modules/" + target_.release, name))
      paths.push_back(p);
    // The release's own modules, only when they could hold DWARF: Debian
    // strips it, but a self-built kernel may not.
    for (const std::string &p : find_ko(modules_dir(target_) + "/kernel", name))
      paths.push_back(p);
    for (const std::string &p : find_ko(modules_dir(target_) + "/updates", name))
      paths.push_back(p);
  }
  DebugFile *f = open_first("module:" + name, paths, why);
  if (!f)
    why = "no debuginfo for module '" + name + "'" + (why.empty() ? "" : " (" + why + ")") +
          "; give its .ko with -d, or install linux-image-" + target_.release + "-dbg";
  return f;
}

DebugFile *KernelDebuginfo::vmlinux(std::string &why) {
  const std::string &r = target_.release;
  DebugFile *f = open_first("kernel", {"/usr/lib/debug/boot/vmlinux-" + r,
                                       "/usr/lib/debug/lib/modules/" + r + "/vmlinux",
                                       target_.build_dir + "/vmlinux", "/boot/vmlinux-" + r},
                            why);
  if (!f)
    why = "no debuginfo for kernel " + r + ": install linux-image-" + r + "-dbg";
  return f;
}

} // namespace stap::dwarf
