// The cache of built modules and prebuilt runtime objects, laid out as
// SystemTap users know it: $SYSTEMTAP_DIR/cache (default
// ~/.systemtap/cache), one sub-directory per first two hex digits of a key.
//
// An entry is a stem (cache/ab/stap_ab12...) and its files: the payloads
// (".ko", ".c", ".o") and STEM_hash.log, which lists what went into the key
// and each payload's content hash. The log is written last, so an entry
// without one is incomplete; a payload whose hash does not match is
// damaged. Either way the entry is removed and rebuilt, never used.
#pragma once
#include <string>
#include <vector>

namespace stap::build {

// $SYSTEMTAP_DIR/cache, or $HOME/.systemtap/cache.
std::string default_cache_dir();

struct CacheEntry {
  std::string stem; // DIR/ab/NAME: the files are STEM.ko, STEM.c, STEM_hash.log
  std::string path(const std::string &ext) const { return stem + ext; }
  std::string log_path() const { return stem + "_hash.log"; }
};

class ModuleCache {
public:
  explicit ModuleCache(std::string dir) : dir_(std::move(dir)) {}
  const std::string &dir() const { return dir_; }

  // Where the entry for `key` lives; `sub` separates kinds ("" for
  // modules, "runtime" for runtime objects).
  CacheEntry entry(const std::string &key, const std::string &name,
                   const std::string &sub = "") const;

  // True if every payload listed in the entry's log is present and intact.
  // A damaged or incomplete entry is removed and `why` says what was wrong
  // ("" for a plain miss). A hit marks the entry as recently used.
  bool lookup(const CacheEntry &e, std::string &why) const;

  // Copies each (extension, source file) into the entry, then writes the
  // log (`key_inputs` plus the payload hashes). Safe against concurrent
  // writers of the same entry: every file is renamed into place. The
  // payloads of `size_only` are checked by their size alone: precompiled
  // headers, tens of MB that hashing would take longer to check than they
  // save, and that the compiler validates itself (a bad one fails the
  // compile, and pass 4 then builds with Kbuild).
  bool store(const CacheEntry &e, const std::vector<std::pair<std::string, std::string>> &files,
             const std::string &key_inputs, std::string &err,
             const std::vector<std::string> &size_only = {}) const;

  // Removes least recently used entries until the cache fits in
  // cache_mb_limit (MiB, default 256), at most once per
  // cache_clean_interval_s (default 300) unless `force`. Both files are
  // created with their defaults when missing, as in SystemTap. Reports what
  // it did on stderr when `verbose`.
  void clean(bool force, int verbose) const;

private:
  std::string dir_;
};

} // namespace stap::build
