// `--ldd`: the shared libraries an object needs, found the way the target's
// dynamic loader (glibc's ld.so) finds them, without running anything: the
// loader may be of another architecture (an i386 root) or absent here.
//
// For each DT_NEEDED name without a '/', in the loader's order:
//   1. DT_RPATH, only if the object has no DT_RUNPATH: the object's, then
//      that of each object up the chain that loaded it (the program last),
//      skipping any that has a DT_RUNPATH;
//   (LD_LIBRARY_PATH: the target's environment is unknown here, not used)
//   2. the object's own DT_RUNPATH;
//   3. the system directories for the object's class (ld.so.cache is not
//      read: on Debian these directories are what it lists):
//      x86_64: /lib/x86_64-linux-gnu /usr/lib/x86_64-linux-gnu /lib64 /usr/lib64
//      i386:   /lib/i386-linux-gnu /usr/lib/i386-linux-gnu /lib32 /usr/lib32
//      then /lib /usr/lib.
// `$ORIGIN` (the directory of the object, canonical) and `$LIB` expand in
// the paths; a candidate of another class or machine is skipped, as the
// loader skips it. A name with a '/' is a path.
#pragma once

#include "driver/sysroot.h"

#include <optional>
#include <string>
#include <vector>

namespace stap {

// What the search needs to know about an object on the loading chain.
struct LoaderNode {
  std::string target_path; // canonical, as the target names it
  bool is_64 = false;
  unsigned machine = 0;    // EM_*
  std::string rpath, runpath;
  bool has_rpath = false, has_runpath = false;
};

// The system directories searched last, for an object's class.
std::vector<std::string> system_library_dirs(bool is_64);

// Expands $ORIGIN / ${ORIGIN} and $LIB / ${LIB} in one search-path entry.
std::string expand_search_dir(const std::string &dir, const std::string &origin, bool is_64);

// Finds DT_NEEDED `name` of chain[0], which chain[1] loaded, ... up to the
// program at chain.back(). Nothing when the loader would not find it;
// `tried` then lists the directories searched.
std::optional<Sysroot::File> find_needed(const std::string &name,
                                         const std::vector<const LoaderNode *> &chain,
                                         const Sysroot &sysroot, std::string &tried);

} // namespace stap
