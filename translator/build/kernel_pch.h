// The kernel's precompiled header for direct builds (direct_build.h):
// Kbuild's forced includes, runtime/stp_kernel.h and the includes of
// Kbuild's NAME.mod.c, compiled once per kernel and Kbuild environment
// with the flags of the NAME.mod.c compile (and -g0), and kept in the
// cache. Both of a module's compiles start from it.
#pragma once
#include "build/build_key.h"
#include "build/kbuild_recipe.h"
#include "build/module_cache.h"

#include <string>

namespace stap::build {

// The header's path (HEADER.gch beside it), built first if the cache has
// none (in `scratch_dir`, under a lock), or "" if it cannot be built:
// direct builds then compile without it.
std::string kernel_pch(const ModuleCache &cache, const BuildKey &env_key, const KbuildRecipe &recipe,
                       const std::string &runtime_dir, const std::string &kernel_build_dir,
                       const std::string &scratch_dir, int verbose);

} // namespace stap::build
