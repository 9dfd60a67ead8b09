// The DWARF of user programs and libraries, for process(...) probes:
// the object's own (built with -g), else its separate debuginfo where a
// distribution's -dbgsym/-dbg package or `objcopy --only-keep-debug`
// put it, looked for as gdb does, in the target's file system:
//   /usr/lib/debug/.build-id/XX/YYYY.debug    (the GNU build-id note)
//   DIR/LINK, DIR/.debug/LINK, /usr/lib/debug/DIR/LINK (.gnu_debuglink)
//   /usr/lib/debug/PATH.debug
// One per session (probes::UserTarget::debuginfo); each object is opened
// once. No DWARF is not an error here: the families fall back to ELF
// symbols and say why when a script needs more.
#pragma once
#include "dwarf/debug_file.h"

#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <string>

namespace stap::dwarf {

class UserDebuginfo {
public:
  // `host_path_of`: the file to open here for a target path ("" when the
  // target has none): the session's sysroot.
  explicit UserDebuginfo(std::function<std::string(const std::string &)> host_path_of)
      : host_path_of_(std::move(host_path_of)) {}

  // The DWARF of the object at `target_path` (opened here as `host_path`),
  // or nullptr with `why` saying which file lacks it and what to install.
  DebugFile *object(const std::string &target_path, const std::string &host_path,
                    std::string &why);

private:
  // The separate debuginfo file (a host path) of the object, or "".
  std::string find_separate(const std::string &target_path, const std::string &host_path,
                            std::string &looked) const;
  std::function<std::string(const std::string &)> host_path_of_;
  std::map<std::string, std::unique_ptr<DebugFile>> open_; // by target path; null: none
  std::map<std::string, std::string> why_;
};

} // namespace stap::dwarf
