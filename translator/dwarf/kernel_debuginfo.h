// Where the DWARF of the target kernel and its modules is, opened once per
// session (hangs on probes::ResolveEnv). Looked for, in order:
//   module("NAME"): a path (module("/x/foo.ko")), a .ko given with -d, the
//     -dbg package's /usr/lib/debug/lib/modules/REL/.../NAME.ko, the
//     release's own modules (Debian strips their DWARF);
//   the kernel: /usr/lib/debug/boot/vmlinux-REL,
//     /usr/lib/debug/lib/modules/REL/vmlinux (linux-image-REL-dbg),
//     /lib/modules/REL/build/vmlinux.
// No DWARF is not an error here: callers fall back to symbols and say why.
#pragma once
#include "driver/target.h"
#include "dwarf/debug_file.h"

#include <map>
#include <memory>
#include <string>
#include <vector>

namespace stap::dwarf {

class KernelDebuginfo {
public:
  // `d_objects`: the -d arguments (those naming .ko files count here).
  KernelDebuginfo(const Target &target, std::vector<std::string> d_objects);
  // The DWARF of module `name` (a module name or a .ko path), or nullptr
  // with `why` saying where it was looked for.
  DebugFile *module(const std::string &name, std::string &why);
  // The kernel's own DWARF, or nullptr with `why` (naming the package).
  DebugFile *vmlinux(std::string &why);

private:
  DebugFile *open_first(const std::string &key, const std::vector<std::string> &paths,
                        std::string &why);
  const Target &target_;
  std::vector<std::string> d_objects_;
  std::map<std::string, std::unique_ptr<DebugFile>> open_; // by key; null: none found
  std::map<std::string, std::string> why_;
};

// The kernel's name for the module in file `path`: its basename without
// ".ko", '-' read as '_' ("/x/stp-testmod.ko" -> "stp_testmod").
std::string module_name_of(const std::string &path);

} // namespace stap::dwarf
