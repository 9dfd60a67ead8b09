#include "dwarf/user_debuginfo.h"

#include "symtab/elf_image.h"

#include <cstring>
#include <vector>

namespace stap::dwarf {
namespace {

std::string dir_of(const std::string &path) {
  auto slash = path.rfind('/');
  return slash == std::string::npos ? "." : path.substr(0, slash);
}

// The file name a .gnu_debuglink section holds (before its CRC), or "".
std::string debuglink(const symtab::ElfImage &elf) {
  auto s = elf.section(".gnu_debuglink");
  if (!s || s->bytes.empty())
    return "";
  const char *name = reinterpret_cast<const char *>(s->bytes.data());
  return std::string(name, strnlen(name, s->bytes.size()));
}

} // namespace

std::string UserDebuginfo::find_separate(const std::string &target_path,
                                         const std::string &host_path,
                                         std::string &looked) const {
  std::string err;
  auto elf = symtab::ElfImage::open_file(host_path, err);
  if (!elf)
    return "";
  const std::string id = elf->build_id();
  // Target paths, most specific first.
  std::vector<std::string> candidates;
  if (id.size() > 2)
    candidates.push_back("/usr/lib/debug/.build-id/" + id.substr(0, 2) + "/" + id.substr(2) +
                         ".debug");
  if (std::string link = debuglink(*elf); !link.empty()) {
    std::string dir = dir_of(target_path);
    candidates.push_back(dir + "/" + link);
    candidates.push_back(dir + "/.debug/" + link);
    candidates.push_back("/usr/lib/debug" + dir + "/" + link);
  }
  candidates.push_back("/usr/lib/debug" + target_path + ".debug");
  for (const std::string &c : candidates) {
    looked += (looked.empty() ? "" : ", ") + c;
    if (c == target_path)
      continue;
    std::string h = host_path_of_(c);
    if (h.empty())
      continue;
    auto dbg = symtab::ElfImage::open_file(h, err);
    // A debug file of another build describes other addresses.
    if (!dbg || (!id.empty() && dbg->build_id() != id) || !dbg->section(".debug_info"))
      continue;
    return h;
  }
  return "";
}

DebugFile *UserDebuginfo::object(const std::string &target_path, const std::string &host_path,
                                 std::string &why) {
  auto it = open_.find(target_path);
  if (it != open_.end()) {
    why = why_[target_path];
    return it->second.get();
  }
  std::string err;
  std::unique_ptr<DebugFile> f = DebugFile::open(host_path, err);
  if (f && !f->has_dwarf()) {
    std::string looked;
    std::string separate = find_separate(target_path, host_path, looked);
    f = separate.empty() ? nullptr : DebugFile::open(host_path, err, separate);
    if (!f || !f->has_dwarf()) {
      f = nullptr;
      err = "'" + target_path + "' has no DWARF debuginfo, and /usr/lib/debug has none for "
                                 "it: install its debug symbols (on Debian the -dbgsym or -dbg "
                                 "package of the package that ships it) or build it with -g";
    }
  } else if (!f) {
    err = "cannot read the DWARF of '" + target_path + "': " + err;
  }
  why_[target_path] = err;
  why = err;
  return (open_[target_path] = std::move(f)).get();
}

} // namespace stap::dwarf
