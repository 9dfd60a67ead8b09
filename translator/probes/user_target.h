// What the user-space probe families (process(...)) need from the session
// (the driver's, reached through ResolveEnv::user):
// where the target's files are read (the sysroot: the i686 guest's root,
// --sysroot), the target's architecture, and, filled in by the families,
// which objects their probes are in (the module carries their unwind and
// symbol tables, as with -d, so a user probe's backtrace is symbolized).
#pragma once

#include "driver/sysroot.h"

#include <functional>
#include <memory>
#include <set>
#include <string>
#include <vector>

namespace stap::dwarf {
class UserDebuginfo;
}

namespace stap::probes {

struct UserTarget {
  // The session's sysroot, made on first use (nullptr when it cannot be).
  std::function<const Sysroot *()> sysroot;
  std::string arch; // "x86_64" | "i386"
  // -c CMD and -x PID: what process.function(...) without a path or PID
  // names (SystemTap fills in the command's program or the PID).
  std::string target_command;
  long target_pid = 0;
  // Objects (target paths) that probes were placed in.
  std::vector<std::string> probed_objects;
  // The DWARF of the objects probed (dwarf/user_debuginfo.h), made on
  // first use by probes/user_dwarf.cpp.
  std::shared_ptr<dwarf::UserDebuginfo> debuginfo;
  // Objects whose every type was read (@cast by name), by target path.
  std::set<std::string> all_types_read;
};

} // namespace stap::probes
