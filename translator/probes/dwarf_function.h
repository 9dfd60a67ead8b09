// DWARF-level probes on kernel and module functions and statements, for
// the kprobe family (kprobe.cpp) when the debuginfo is there:
//   kernel.function("PATTERN"), module("M").function("PATTERN")
//     [.call | .return[.maxactive(N)] | .inline | .exported | .label("L")]
//   kernel.statement("PATTERN"), module("M").statement("PATTERN")[.nearest]
// PATTERN is func[@file[:line|:a-b|:*|+offset]] (dwarf/function_pattern.h).
// Each match becomes a kprobe at "module:symbol+offset" with the target
// variables of that address (ResolvedProbe::scope).
#pragma once
#include "probes/family.h"

#include <optional>

namespace stap::probes {

// Resolves `point` with DWARF and returns true/false (resolved, or an
// error was reported); nullopt when there is no DWARF for it and the
// caller should resolve it by symbol instead.
std::optional<bool> resolve_dwarf_probe(const ResolveEnv &env, ast::ProbeDecl &decl,
                                        ast::ProbePoint &point, const ProbeFamily *family,
                                        std::vector<ResolvedProbe> &out, Diagnostics &diag);

} // namespace stap::probes
