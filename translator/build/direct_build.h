// Pass 4 without make (docs/build.md, "Direct builds"): a module built by
// running the commands Kbuild ran for an earlier module of the same kernel
// (kbuild_recipe.h), with its directory, name and flags put in, and both
// compiles starting from the kernel's precompiled header (kernel_pch.h)
// when there is one. Kbuild's make, its three sub-makes and their helper
// processes cost as much as a compile; the precompiled header makes each
// compile about 5 times cheaper.
#pragma once
#include "build/kbuild.h"
#include "build/kbuild_recipe.h"

#include <string>

namespace stap::build {

// Builds JOB's module in JOB.dir/direct/ (its own directory, so that a
// failure leaves nothing behind for Kbuild to take as up to date) with
// `recipe`, and with `pch_header` (a header whose .gch is beside it) if
// not empty. Needs a prebuilt runtime object. Returns the .ko's path, or
// "" if any step failed (`log` has the commands' output): the caller then
// builds with Kbuild, which reports a compile error in its usual way.
std::string build_direct(const KbuildJob &job, const KbuildRecipe &recipe,
                         const std::string &pch_header, std::string &log);

} // namespace stap::build
