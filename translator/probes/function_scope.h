// The target variables of a kernel function probe from the function's
// prototype in the kernel's debuginfo (BTF): its parameters where the
// calling convention puts them at entry (the arch's kernel argument
// registers, then the stack), and `$return` with the function's return
// type at a .return. One scope per (module, function, entry/return),
// shared by every point that probes it.
#pragma once
#include "probes/family.h"

#include <memory>
#include <string>

namespace stap::probes {

// `module` "" for the kernel. Never null: a scope without types carries
// why (missing_reason), and `$return` then falls back to the return
// register as a long.
std::shared_ptr<const debuginfo::TargetScope>
function_scope(const ResolveEnv &env, const std::string &module, const std::string &function,
               bool is_return);

// Does `decl`'s body use target variables ($x, $$parms)? Scopes are only
// worked out for those (or for -L), so scripts without any never load
// debuginfo.
bool uses_target_vars(const ast::ProbeDecl &decl);

// Does it use @cast or @var? (In a user probe their module is by default
// the probed object, which the point's scope names.)
bool uses_casts(const ast::ProbeDecl &decl);

} // namespace stap::probes
