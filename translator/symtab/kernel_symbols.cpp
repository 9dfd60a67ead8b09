#include "symtab/kernel_symbols.h"

#include "lang/glob.h"
#include "remote/vm.h"
#include "util/file_lock.h"
#include "util/file_text.h"
#include "util/systemtap_dir.h"
#include "util/progress_line.h"

#include <algorithm>
#include <cstdio>
#include <cstring>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <map>
#include <memory>
#include <optional>
#include <sstream>
#include <sys/utsname.h>
#include <unistd.h>

namespace stap::symtab {
namespace fs = std::filesystem;
namespace {

// The cache file: "V 3" (its version), "F name" for functions, "B name"
// for the blacklist, "C name offset..." for the names several functions
// share (since V 3), then "D name offset" for data symbols; offsets in hex
// from _printk. A file of another version is read again from a guest.
const char kCacheVersion[] = "V 3\n";

std::string hex_offset(int64_t offset) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%llx", (unsigned long long)offset);
  return buf;
}

// "name off1 off2...": a "C" line's text.
bool parse_copies_line(std::string_view line, KernelSymbols &k) {
  size_t space = line.find(' ');
  if (space == std::string_view::npos || space == 0)
    return false;
  std::vector<int64_t> offsets;
  std::string rest(line.substr(space));
  const char *p = rest.c_str();
  while (*p == ' ') {
    char *end = nullptr;
    offsets.push_back((int64_t)std::strtoull(p + 1, &end, 16));
    if (end == p + 1)
      return false;
    p = end;
  }
  if (*p || offsets.size() < 2)
    return false;
  k.copies[std::string(line.substr(0, space))] = std::move(offsets);
  return true;
}

} // namespace

std::string kernel_symbols_cache_text(const KernelSymbols &k) {
  std::string s = kCacheVersion;
  for (const auto &f : k.functions)
    s += "F " + f + "\n";
  for (const auto &b : k.blacklisted)
    s += "B " + b + "\n";
  for (const auto &[name, offsets] : k.copies) {
    s += "C " + name;
    for (int64_t o : offsets)
      s += " " + hex_offset(o);
    s += "\n";
  }
  size_t pos = 0;
  while (pos < k.data_lines.size()) {
    size_t end = k.data_lines.find('\n', pos);
    if (end == std::string::npos)
      end = k.data_lines.size();
    s += "D " + k.data_lines.substr(pos, end - pos) + "\n";
    pos = end + 1;
  }
  return s;
}

bool parse_kernel_symbols_cache(const std::string &text, KernelSymbols &k) {
  if (text.rfind(kCacheVersion, 0) != 0)
    return false;
  size_t pos = sizeof(kCacheVersion) - 1;
  k.functions.reserve(text.size() / 20);
  while (pos < text.size()) {
    size_t end = text.find('\n', pos);
    if (end == std::string::npos)
      end = text.size();
    if (end - pos < 3 || text[pos + 1] != ' ')
      return false;
    if (text[pos] == 'F')
      k.functions.emplace_back(text, pos + 2, end - pos - 2);
    else if (text[pos] == 'B')
      k.blacklisted.emplace(text, pos + 2, end - pos - 2);
    else if (text[pos] == 'C') {
      if (!parse_copies_line(std::string_view(text).substr(pos + 2, end - pos - 2), k))
        return false;
    } else if (text[pos] == 'D')
      k.data_lines.append(text, pos + 2, end - pos - 1); // with its newline
    pos = end + 1;
  }
  return !k.functions.empty();
}

namespace {

void write_atomically(const std::string &path, const std::string &text) {
  std::string tmp = path + ".tmp." + std::to_string(getpid());
  {
    std::ofstream out(tmp, std::ios::binary);
    out << text;
    if (!out)
      return;
  }
  std::error_code ec;
  fs::rename(tmp, path, ec);
  if (ec)
    fs::remove(tmp, ec);
}

// What k keeps of a kernel's /proc/kallsyms text.
void take_kallsyms(KernelSymbols &k, const std::string &kallsyms) {
  k.functions = parse_kallsyms(kallsyms);
  k.copies = parse_kallsyms_copies(kallsyms);
  k.data_lines = parse_kallsyms_data(kallsyms);
}

// One guest boot: the target's kallsyms and kprobe blacklist.
bool read_from_guest(const std::string &release, KernelSymbols &k, std::string &error) {
  std::optional<remote::VmTarget> target;
  for (const auto &t : remote::installed_vm_targets())
    if (t.release == release)
      target = t;
  if (!target) {
    error = "no installed kernel image for release " + release + " to read its symbols from";
    return false;
  }
  remote::VmJob job;
  job.name = "kallsyms";
  job.command = "cat /proc/kallsyms > kallsyms && cat /sys/kernel/debug/kprobes/blacklist"
                " > blacklist && cat kallsyms && echo '# blacklist' && cat blacklist";
  job.timeout_s = 60;
  try {
    ProgressLine progress("booting a " + release +
                          " guest to read its kernel symbols (once per release)");
    auto r = remote::run_vm_batch(*target, {job});
    if (r.jobs.empty() || !r.jobs[0].ok()) {
      error = "reading /proc/kallsyms in a " + release + " guest failed" +
              (r.jobs.empty() ? std::string() : ": " + r.jobs[0].note + r.jobs[0].err);
      return false;
    }
    const std::string &out = r.jobs[0].out;
    size_t split = out.find("# blacklist\n");
    if (split == std::string::npos) {
      error = "no kprobe blacklist from the " + release + " guest";
      return false;
    }
    take_kallsyms(k, out.substr(0, split));
    k.blacklisted = parse_kprobe_blacklist(out.substr(split));
  } catch (const remote::VmError &e) {
    error = std::string("cannot boot a ") + release + " guest to read its symbols: " + e.what();
    return false;
  }
  if (k.functions.empty()) {
    error = "the " + release + " guest's /proc/kallsyms has no function names";
    return false;
  }
  return true;
}

bool load(const std::string &release, KernelSymbols &k, std::string &error) {
  k.release = release;
  std::string dir = symbol_cache_dir();
  std::string path = dir + "/" + release;
  if (parse_kernel_symbols_cache(read_file(path), k))
    return true;
  utsname u{};
  uname(&u);
  if (release == u.release) {
    // The running kernel: its own kallsyms (slow to read, hence the cache).
    std::string kallsyms = read_file("/proc/kallsyms");
    take_kallsyms(k, kallsyms);
    k.blacklisted = parse_kprobe_blacklist(read_file("/sys/kernel/debug/kprobes/blacklist"));
    if (k.functions.empty()) {
      error = "/proc/kallsyms of the running kernel lists no functions";
      return false;
    }
    std::error_code ec;
    fs::create_directories(dir, ec);
    write_atomically(path, kernel_symbols_cache_text(k));
    return true;
  }
  std::error_code ec;
  fs::create_directories(dir, ec);
  // One process boots the guest; the others wait here and read its cache.
  FileLock lock(path + ".lock");
  bool ok = parse_kernel_symbols_cache(read_file(path), k);
  if (!ok) {
    k = KernelSymbols{};
    k.release = release;
    ok = read_from_guest(release, k, error);
    if (ok)
      write_atomically(path, kernel_symbols_cache_text(k));
  }
  return ok;
}

} // namespace

std::string symbol_cache_dir() { return systemtap_dir() + "/kernel-symbols"; }

namespace {

// Calls f(address, type, name) for each line of /proc/kallsyms text
// ("ffffffff81000000 T name", a module's with "\t[module]" after it).
template <typename F> void for_each_kallsyms_line(const std::string &text, F &&f) {
  size_t pos = 0;
  while (pos < text.size()) {
    size_t end = text.find('\n', pos);
    if (end == std::string::npos)
      end = text.size();
    std::string_view line(text.data() + pos, end - pos);
    pos = end + 1;
    size_t s1 = line.find(' ');
    if (s1 == std::string_view::npos || s1 + 3 >= line.size() || line[s1 + 2] != ' ')
      continue;
    uint64_t addr = std::strtoull(std::string(line.substr(0, s1)).c_str(), nullptr, 16);
    f(addr, line[s1 + 1], line.substr(s1 + 3));
  }
}

} // namespace

namespace {

struct TextSymbol {
  uint64_t addr;
  std::string_view name;
};

// The kernel's own live text symbols in `text` (views into it), with the
// address of `_printk` (0 when it lists none).
std::vector<TextSymbol> live_text_symbols(const std::string &text, uint64_t &printk) {
  std::vector<TextSymbol> syms;
  uint64_t init_start = 0, init_end = 0;
  printk = 0;
  for_each_kallsyms_line(text, [&](uint64_t addr, char type, std::string_view name) {
    if (name == "_sinittext")
      init_start = addr;
    else if (name == "_einittext")
      init_end = addr;
    else if (name == "_printk")
      printk = addr;
    if ((type == 't' || type == 'T' || type == 'w' || type == 'W') &&
        name.find_first_of("\t [.") == std::string_view::npos)
      syms.push_back({addr, name});
  });
  // __init functions are gone once the kernel has booted: nothing to probe.
  std::erase_if(syms, [&](const TextSymbol &s) {
    return init_start < init_end && s.addr >= init_start && s.addr < init_end;
  });
  return syms;
}

} // namespace

std::vector<std::string> parse_kallsyms(const std::string &text) {
  uint64_t printk;
  std::vector<std::string> names;
  for (const TextSymbol &s : live_text_symbols(text, printk))
    names.emplace_back(s.name);
  std::sort(names.begin(), names.end());
  names.erase(std::unique(names.begin(), names.end()), names.end());
  return names;
}

std::map<std::string, std::vector<int64_t>> parse_kallsyms_copies(const std::string &text) {
  uint64_t printk;
  std::vector<TextSymbol> syms = live_text_symbols(text, printk);
  std::map<std::string, std::vector<int64_t>> copies;
  if (!printk)
    return copies;
  // By name, then address: the copies of a name are next to each other.
  std::sort(syms.begin(), syms.end(), [](const TextSymbol &a, const TextSymbol &b) {
    return a.name != b.name ? a.name < b.name : a.addr < b.addr;
  });
  for (size_t i = 0; i < syms.size();) {
    size_t j = i + 1;
    std::vector<int64_t> offsets = {(int64_t)(syms[i].addr - printk)};
    for (; j < syms.size() && syms[j].name == syms[i].name; ++j)
      if (syms[j].addr != syms[j - 1].addr) // one function listed twice is one copy
        offsets.push_back((int64_t)(syms[j].addr - printk));
    if (offsets.size() > 1)
      copies.emplace(std::string(syms[i].name), std::move(offsets));
    i = j;
  }
  return copies;
}

std::string parse_kallsyms_data(const std::string &text) {
  struct Sym {
    uint64_t addr;
    std::string_view name;
  };
  std::vector<Sym> syms;
  uint64_t printk = 0;
  for_each_kallsyms_line(text, [&](uint64_t addr, char type, std::string_view name) {
    if (name.find_first_of("\t [") != std::string_view::npos)
      return; // a module's
    if (name == "_printk")
      printk = addr;
    if (std::strchr("dDbBrR", type))
      syms.push_back({addr, name});
  });
  if (!printk)
    return {};
  std::string out;
  char offset[32];
  for (const Sym &s : syms) {
    std::snprintf(offset, sizeof offset, "%llx", (unsigned long long)(s.addr - printk));
    out.append(s.name).append(" ").append(offset).append("\n");
  }
  return out;
}

std::vector<int64_t> KernelSymbols::data_offsets(const std::string &name) const {
  std::vector<int64_t> out;
  std::string key = name + " ";
  for (size_t at = 0; (at = data_lines.find(key, at)) != std::string::npos; at += key.size())
    if (at == 0 || data_lines[at - 1] == '\n')
      out.push_back((int64_t)std::strtoull(data_lines.c_str() + at + key.size(), nullptr, 16));
  return out;
}

std::unordered_set<std::string> parse_kprobe_blacklist(const std::string &text) {
  std::unordered_set<std::string> names;
  std::istringstream in(text);
  std::string range, name;
  while (in >> range >> name)
    if (range.rfind("0x", 0) == 0)
      names.insert(name);
  return names;
}

std::vector<std::string> KernelSymbols::functions_matching(const std::string &glob) const {
  std::vector<std::string> out;
  size_t meta = glob.find_first_of("*?[");
  if (meta == std::string::npos) {
    if (has_function(glob))
      out.push_back(glob);
    return out;
  }
  // The literal prefix narrows the sorted list to one range.
  std::string prefix = glob.substr(0, meta);
  auto it = std::lower_bound(functions.begin(), functions.end(), prefix);
  for (; it != functions.end() && it->compare(0, prefix.size(), prefix) == 0; ++it)
    if (lang::glob_match(glob, *it))
      out.push_back(*it);
  return out;
}

bool KernelSymbols::has_function(const std::string &name) const {
  return std::binary_search(functions.begin(), functions.end(), name);
}

const std::vector<int64_t> &KernelSymbols::function_copies(const std::string &name) const {
  static const std::vector<int64_t> none;
  auto it = copies.find(name);
  return it == copies.end() ? none : it->second;
}

const KernelSymbols *kernel_symbols(const std::string &release, std::string &error) {
  static std::map<std::string, std::unique_ptr<KernelSymbols>> loaded;
  static std::map<std::string, std::string> failed;
  if (auto it = loaded.find(release); it != loaded.end())
    return it->second.get();
  if (auto it = failed.find(release); it != failed.end()) {
    error = it->second;
    return nullptr;
  }
  auto k = std::make_unique<KernelSymbols>();
  if (!load(release, *k, error)) {
    failed[release] = error;
    return nullptr;
  }
  return (loaded[release] = std::move(k)).get();
}

} // namespace stap::symtab
