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
#include <map>
#include <string>
#include <unordered_set>
#include <vector>

namespace stap::symtab {

struct KernelSymbols {
  std::string release;
  std::vector<std::string> functions;          // text symbols, sorted, unique
  // The names of `functions` that several text symbols share (statics of
  // one name in different files), with each copy's offset from `_printk`
  // in address order: a kprobe by symbol name reaches only the copy the
  // kernel finds first, so kernel.function probes these by address, one
  // per copy.
  std::map<std::string, std::vector<int64_t>> copies;
  std::unordered_set<std::string> blacklisted; // the kprobe blacklist
  // Data symbols (kallsyms types d, b, r and upper case): "NAME OFFSET"
  // lines, OFFSET from `_printk` in hex (KASLR moves the kernel image as a
  // whole, so that difference holds in every boot). Parsed only when asked
  // for: kernel.data("NAME") probes.
  std::string data_lines;
  std::vector<std::string> functions_matching(const std::string &glob) const;
  bool has_function(const std::string &name) const;
  // The copies' offsets from `_printk` when `name` names several
  // functions; empty when it names one (probed by name).
  const std::vector<int64_t> &function_copies(const std::string &name) const;
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
// The names of those that several live (not __init) copies share, with
// the copies' offsets from `_printk` as KernelSymbols::copies (empty
// without `_printk`).
std::map<std::string, std::vector<int64_t>> parse_kallsyms_copies(const std::string &text);
// The data symbols of /proc/kallsyms text as KernelSymbols::data_lines
// ("" without `_printk`; the i686 kernels list no data symbols).
std::string parse_kallsyms_data(const std::string &text);
// Parses /sys/kernel/debug/kprobes/blacklist text ("0xSTART-0xEND\tname").
std::unordered_set<std::string> parse_kprobe_blacklist(const std::string &text);

// The per-release cache file's text, and back (false: not a cache of
// this version, to be read again from the kernel).
std::string kernel_symbols_cache_text(const KernelSymbols &k);
bool parse_kernel_symbols_cache(const std::string &text, KernelSymbols &k);

} // namespace stap::symtab
