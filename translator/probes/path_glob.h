// Wildcards in process("PATH") (SystemTap: "standard globbing is performed
// to find all matching paths", $PATH not searched), expanded over the
// files the target sees (driver/sysroot.h).
#pragma once

#include "driver/sysroot.h"

#include <string>
#include <vector>

namespace stap::probes {

bool has_path_wildcard(const std::string &path);

// The regular files whose target paths match `pattern` (each component a
// glob(7) pattern, relative patterns from the working directory), sorted,
// each once (by canonical target path).
std::vector<Sysroot::File> glob_target_files(const Sysroot &sysroot, const std::string &pattern);

} // namespace stap::probes
