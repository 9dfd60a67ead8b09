// AddressSpace; see address_space.h.
#include "address_space.h"

#include "symtab/unwind_table.h"

#include <algorithm>
#include <fstream>
#include <map>
#include <sstream>

namespace ustack {

namespace {

struct MapLine {
  uint64_t start, end, offset;
  std::string path;
};

std::vector<MapLine> read_maps(pid_t pid) {
  std::vector<MapLine> out;
  std::ifstream in("/proc/" + std::to_string(pid) + "/maps");
  std::string line;
  while (std::getline(in, line)) {
    std::istringstream words(line);
    std::string range, perms, offset, dev, inode, path;
    words >> range >> perms >> offset >> dev >> inode;
    std::getline(words >> std::ws, path);
    size_t dash = range.find('-');
    if (dash == std::string::npos || path.empty())
      continue;
    if (path != "[vdso]" && path[0] != '/')
      continue; // heap, stack, anonymous memory: no code objects
    out.push_back({std::stoull(range.substr(0, dash), nullptr, 16),
                   std::stoull(range.substr(dash + 1), nullptr, 16),
                   std::stoull(offset, nullptr, 16), path});
  }
  return out;
}

// Load bias from one mapping: the PT_LOAD segment containing its file
// offset tells which link-time address the mapping's start corresponds to.
bool bias_of(const stap::symtab::ElfImage &elf, const MapLine &m,
             uint64_t &bias) {
  for (const auto &seg : elf.loads()) {
    uint64_t page_off = seg.offset & ~uint64_t(0xfff);
    if (m.offset >= page_off && m.offset < seg.offset + seg.filesz) {
      uint64_t vaddr = (seg.vaddr & ~uint64_t(0xfff)) + (m.offset - page_off);
      bias = m.start - vaddr;
      return true;
    }
  }
  return false;
}

} // namespace

bool AddressSpace::load(pid_t pid, const ProcessMemory &mem, std::string &err) {
  std::vector<MapLine> maps = read_maps(pid);
  if (maps.empty()) {
    err = "cannot read /proc/" + std::to_string(pid) + "/maps";
    return false;
  }
  std::map<std::string, MappedObject *> by_path;
  for (const MapLine &m : maps) {
    auto it = by_path.find(m.path);
    MappedObject *obj;
    if (it == by_path.end()) {
      auto fresh = std::make_unique<MappedObject>();
      fresh->path = m.path;
      obj = fresh.get();
      objects_.push_back(std::move(fresh));
      by_path[m.path] = obj;
      // Build the table from the first (lowest) mapping of the object.
      std::unique_ptr<stap::symtab::ElfImage> elf;
      if (m.path == "[vdso]") {
        std::vector<uint8_t> image(m.end - m.start);
        if (mem.read(m.start, image.data(), image.size()))
          elf = stap::symtab::ElfImage::open_memory(std::move(image), obj->error);
        else
          obj->error = "vdso not readable";
      } else {
        std::string path = m.path;
        const std::string deleted = " (deleted)";
        if (path.size() > deleted.size() &&
            path.compare(path.size() - deleted.size(), deleted.size(), deleted) == 0)
          path.resize(path.size() - deleted.size());
        elf = stap::symtab::ElfImage::open_file(path, obj->error);
      }
      if (elf && bias_of(*elf, m, obj->bias)) {
        obj->blob = stap::symtab::build_unwind_table(*elf, obj->error);
        obj->has_table =
            !obj->blob.empty() &&
            uw_table_open(&obj->table, obj->blob.data(),
                          static_cast<uw_u32>(obj->blob.size())) == 0;
      }
    } else {
      obj = it->second;
    }
    ranges_.push_back({m.start, m.end, obj});
  }
  std::sort(ranges_.begin(), ranges_.end(),
            [](const Range &a, const Range &b) { return a.start < b.start; });
  return true;
}

const MappedObject *AddressSpace::find(uint64_t addr) const {
  auto it = std::upper_bound(
      ranges_.begin(), ranges_.end(), addr,
      [](uint64_t a, const Range &r) { return a < r.start; });
  if (it == ranges_.begin())
    return nullptr;
  --it;
  return addr < it->end ? it->object : nullptr;
}

} // namespace ustack
