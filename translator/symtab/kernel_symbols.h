// The function symbols of the TARGET kernel, for wildcard probe points
// (`kernel.function("vfs_*")`) and for reporting unprobeable functions at
// pass 2.
//
// Debian's System.map is a stub and the i686 kernel has no BTF, so the
// names come from the target itself: one guest boot per kernel release
// reads /proc/kallsyms and /sys/kernel/debug/kprobes/blacklist, and the
// result is cached per release (docs/probes.md). For the running kernel,
// its own /proc/kallsyms is read directly.
#pragma once

#include <cstdint>
#include <string>
#include <unordered_set>
#include <vector>

namespace stap::symtab {

struct KernelSymbols {
  std::string release;
  std::vector<std::string> functions;          // text symbols, sorted, unique
  std::unordered_set<std::string> blacklisted; // the kprobe blacklist
  // Data symbols (kallsyms types d, b, r and upper case): "NAME OFFSET"
  // lines, OFFSET from `_printk` in hex (KASLR moves the kernel image as a
  // whole, so that difference holds in every boot). Parsed only when asked
  // for: kernel.data("NAME") probes.
  std::string data_lines;
  std::vector<std::string> functions_matching(const std::string &glob) const;
  bool has_function(const std::string &name) const;
  // The offsets from `_printk` of the data symbols named `name` (statics
  // of one name may be several).
  std::vector<int64_t> data_offsets(const std::string &name) const;
};

// The symbols of `release`, loaded once per process (nullptr, with
// `error` set, when they cannot be had). May boot a guest the first time
// a release is asked for.
const KernelSymbols *kernel_symbols(const std::string &release, std::string &error);

// Where the per-release files live: $SYSTEMTAP_DIR/kernel-symbols, by
// default ~/.systemtap/kernel-symbols (beside the module cache, outside
// its size-limited directory).
std::string symbol_cache_dir();

// Parses /proc/kallsyms text: the kernel's own text symbols (no [module]
// ones, no compiler clones such as `f.cold` or `f.isra.0`).
std::vector<std::string> parse_kallsyms(const std::string &text);
// The data symbols of /proc/kallsyms text as KernelSymbols::data_lines
// ("" without `_printk`; the i686 kernels list no data symbols).
std::string parse_kallsyms_data(const std::string &text);
// Parses /sys/kernel/debug/kprobes/blacklist text ("0xSTART-0xEND\tname").
std::unordered_set<std::string> parse_kprobe_blacklist(const std::string &text);

} // namespace stap::symtab
