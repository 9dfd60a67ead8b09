// Finding the program a process("NAME") names, as the target would: a
// name with a '/' is a path (relative to the working directory), a bare
// name the first match in the PATH directories, as a shell looks it up
// (SystemTap 4.8 shows process("ls") as process("/usr/bin/ls")).
#pragma once

#include "driver/sysroot.h"

#include <optional>
#include <string>

namespace stap::probes {

// The file `name` names on the target, or nothing when there is none.
// `search_path`: a bare name is looked up in the PATH directories.
std::optional<Sysroot::File> find_program(const Sysroot &sysroot, const std::string &name,
                                          bool search_path = true);

} // namespace stap::probes
