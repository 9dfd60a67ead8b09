// Global (and file-static) variables of a kernel module or vmlinux, for
// `@var("name[@file]"[, "module"])`: the variable's type and where it is,
// wherever a probe fires.
#pragma once
#include "arch/arch.h"
#include "debuginfo/target_scope.h"
#include "dwarf/debug_file.h"
#include "dwarf/scope.h"

#include <optional>
#include <string>

namespace stap::dwarf {

// C for the run-time address of static data at DWARF address `addr` of
// `file`: in module `module` ("" for vmlinux, whose addresses move by the
// KASLR offset). nullopt with `why` when it cannot be placed.
std::optional<std::string> kernel_static_address(DebugFile &file, const std::string &module,
                                                 uint64_t addr, std::string &why);

// The variable `spec` ("name" or "name@file-pattern") defined at the top
// level of a compilation unit of `file`; its type is in file.types().
std::optional<debuginfo::TargetVar> find_global(DebugFile &file, const std::string &module,
                                                const std::string &spec, const arch::Arch &arch,
                                                std::string &why);

// The same, with the caller's `opts`: how static data is relocated
// (opts.address) and whose memory it is in (opts.user), for a user
// program's or library's variables.
std::optional<debuginfo::TargetVar> find_global(DebugFile &file, const std::string &spec,
                                                const ScopeOptions &opts, std::string &why);

} // namespace stap::dwarf
