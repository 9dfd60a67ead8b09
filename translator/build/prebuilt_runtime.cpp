#include "build/prebuilt_runtime.h"

#include "util/file_lock.h"

#include <cstdio>
#include <filesystem>

namespace stap::build {

std::string prebuilt_runtime(const ModuleCache &cache, const BuildKey &key, KbuildJob job,
                             int verbose, Diagnostics &diag) {
  CacheEntry e = cache.entry(key.hex, "stp_runtime_" + key.hex, "runtime");
  std::string why;
  if (cache.lookup(e, why))
    return e.path(".o");
  std::error_code ec;
  std::filesystem::create_directories(std::filesystem::path(e.stem).parent_path(), ec);
  FileLock lock(e.stem + ".lock");
  std::string why_locked;
  if (cache.lookup(e, why_locked)) // another stap built it while we waited
    return e.path(".o");
  if (why.empty())
    why = why_locked;
  if (verbose > 1) {
    if (!why.empty())
      std::fprintf(stderr, "Pass 4: rebuilding the runtime object: %s\n", why.c_str());
    std::fprintf(stderr, "Pass 4: compiling the runtime into \"%s\"\n", e.path(".o").c_str());
  }
  job.dir += "/runtime";
  std::filesystem::create_directories(job.dir, ec);
  std::string obj = build_runtime_object(job, diag);
  if (obj.empty())
    return {};
  std::string err;
  if (!cache.store(e, {{".o", obj}}, key.inputs, err)) {
    // Not fatal: the module can still link the object just built.
    if (verbose)
      std::fprintf(stderr, "Pass 4: not caching the runtime object: %s\n", err.c_str());
    return obj;
  }
  return e.path(".o");
}

} // namespace stap::build
