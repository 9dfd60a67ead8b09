// The tapset search path, as SystemTap defines it.
//
// Roots, in order: $SYSTEMTAP_TAPSET (else the installed tapset directory),
// each $XDG_DATA_DIRS/systemtap/tapset, then each -I DIR. Inside a root, the
// most specific sub-directory comes first: runtime (linux/), then kernel
// version (6.1.0-56-amd64, 6.1.0, 6.1, 6), then architecture (x86_64), then
// the root itself. A file name found in a more specific directory hides the
// same name in less specific ones of the same root.
#pragma once
#include <string>
#include <vector>

namespace stap::tapsets {

struct SearchPathConfig {
  std::vector<std::string> roots; // already ordered
  std::string kernel_release;     // 6.1.0-56-amd64
  std::string arch;               // x86_64 | i386
};

// The roots for this environment and these -I directories.
std::vector<std::string> default_roots(const std::vector<std::string> &include_dirs);

// Sub-directories of `root` to search, most specific first.
std::vector<std::string> search_dirs(const std::string &root, const std::string &kernel_release,
                                     const std::string &arch);

struct TapsetFiles {
  std::vector<std::string> macro_files;  // *.stpm: read first
  std::vector<std::string> script_files; // *.stp
};

// Every tapset file the path provides, macro files first; shadowed files
// left out. Order: roots in order, directories most specific first, names
// sorted.
TapsetFiles find_tapset_files(const SearchPathConfig &cfg);

} // namespace stap::tapsets
