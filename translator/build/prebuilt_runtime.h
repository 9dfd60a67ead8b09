// The runtime compiled once per kernel + runtime sources + defines (see
// runtime_key) and kept in the cache, so that pass 4 of each later module
// compiles only the generated C and links.
#pragma once
#include "build/build_key.h"
#include "build/kbuild.h"
#include "build/module_cache.h"
#include "util/diag.h"

namespace stap::build {

// The cached runtime object for `key`, built first (in a scratch directory
// under `job.dir`) if the cache has none or a damaged one. Concurrent stap
// runs build it once: the others wait on a lock. Returns "" after
// reporting an error.
std::string prebuilt_runtime(const ModuleCache &cache, const BuildKey &key, KbuildJob job,
                             int verbose, Diagnostics &diag);

} // namespace stap::build
