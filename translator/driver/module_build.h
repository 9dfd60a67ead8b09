// Passes 3-4 around the cache: the module's key and name (pass 3), then a
// cache hit, or a Kbuild build against the prebuilt runtime that is stored
// in the cache for next time (pass 4). See docs/build.md.
#pragma once
#include "build/build_key.h"
#include "build/module_cache.h"
#include "driver/options.h"
#include "driver/target.h"
#include "driver/user_tables.h"
#include "util/diag.h"

#include <optional>
#include <string>

namespace stap {

class ModuleBuild {
public:
  // Hashes the inputs of the module built from `c_source` and carrying
  // `tables` (-d, --ldd); looks it up in the cache unless --disable-cache or
  // --poison-cache.
  ModuleBuild(const Options &opts, const Target &target, const std::string &c_source,
              const std::vector<UserTable> &tables = {});

  // -m NAME, or stap_KEY.
  const std::string &module_name() const { return name_; }
  // The cache entry, when the cache is in use.
  const std::optional<build::CacheEntry> &entry() const { return entry_; }
  // The cache holds this very module: passes 3 and 4 have nothing to do.
  bool hit() const { return hit_; }
  // The module's path in the cache after a hit or a stored build, else "".
  std::string cached_ko() const { return in_cache_ ? entry_->path(".ko") : std::string(); }

  // Pass 4 on a miss: builds the module in `scratch_dir` (against the
  // cached runtime object when the cache is in use) and stores it. Returns
  // the .ko path, or "" after reporting to `diag`.
  std::string build(const std::string &scratch_dir, Diagnostics &diag);

private:
  const Options &opts_;
  const Target &target_;
  const std::string &c_source_;
  const std::vector<UserTable> &tables_;
  build::BuildInputs inputs_;
  build::BuildKey env_key_, runtime_key_, module_key_;
  std::optional<build::ModuleCache> cache_;
  std::optional<build::CacheEntry> entry_;
  std::string name_;
  bool hit_ = false, in_cache_ = false;
};

} // namespace stap
