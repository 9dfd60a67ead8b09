// Loading and unloading the probe module, and finding its debugfs files.
#pragma once
#include <string>
#include <vector>

namespace staprun {

// "dir/stap_abc.ko" -> "stap_abc" (Kbuild names the module after its file).
std::string module_name_of(const std::string &path);

// finit_module(); on failure returns false and sets `err`.
bool load_module(const std::string &path, const std::vector<std::string> &params,
                 std::string &err);
// delete_module(), retrying briefly while the module is still busy.
bool unload_module(const std::string &name, std::string &err);

// /sys/kernel/debug/stap/NAME, mounting debugfs first if it is not mounted.
std::string module_debugfs_dir(const std::string &name, std::string &err);

} // namespace staprun
