#include "build/module_cache.h"

#include "build/content_hash.h"
#include "util/systemtap_dir.h"

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <ctime>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <unistd.h>

namespace fs = std::filesystem;

namespace stap::build {
namespace {

const long kDefaultLimitMb = 256;
const long kDefaultIntervalS = 300;
const char kPayloadTag[] = "payload ";
const std::string kSizeTag = "size:";

// The integer in DIR/NAME, creating the file with `def` when missing.
long read_setting(const std::string &dir, const char *name, long def, int verbose) {
  std::string path = dir + "/" + name;
  std::ifstream in(path);
  long v;
  if (in >> v && v >= 0)
    return v;
  if (!in.is_open()) {
    if (verbose > 1)
      std::fprintf(stderr, "Cache setting %s missing, creating default %ld.\n", path.c_str(), def);
    std::ofstream(path) << def << "\n";
  }
  return def;
}

// (extension, hash) of each payload the log lists.
std::vector<std::pair<std::string, std::string>> read_payloads(const std::string &log) {
  std::vector<std::pair<std::string, std::string>> r;
  std::ifstream in(log);
  std::string line;
  while (std::getline(in, line)) {
    if (line.rfind(kPayloadTag, 0) != 0)
      continue;
    std::istringstream ss(line.substr(sizeof(kPayloadTag) - 1));
    std::string ext, hash;
    if (ss >> ext >> hash)
      r.emplace_back(ext, hash);
  }
  return r;
}

// "size:N" for a payload checked by its size only (see store()), "" if
// it is missing.
std::string size_tag(const std::string &path) {
  std::error_code ec;
  uintmax_t n = fs::file_size(path, ec);
  return ec ? std::string() : kSizeTag + std::to_string(n);
}

void remove_entry(const CacheEntry &e, const std::vector<std::pair<std::string, std::string>> &payloads) {
  std::error_code ec;
  for (const auto &[ext, hash] : payloads)
    fs::remove(e.path(ext), ec);
  fs::remove(e.log_path(), ec);
}

// Copies `from` to `to` through a temporary name in the same directory, so
// readers see the old file or the whole new one.
bool install_file(const std::string &from, const std::string &to) {
  std::string tmp = to + ".tmp" + std::to_string(getpid());
  std::error_code ec;
  fs::copy_file(from, tmp, fs::copy_options::overwrite_existing, ec);
  if (!ec)
    fs::rename(tmp, to, ec);
  if (ec)
    fs::remove(tmp, ec);
  return !ec;
}

bool install_text(const std::string &text, const std::string &to) {
  std::string tmp = to + ".tmp" + std::to_string(getpid());
  {
    std::ofstream f(tmp, std::ios::binary);
    f << text;
    if (!f)
      return false;
  }
  std::error_code ec;
  fs::rename(tmp, to, ec);
  return !ec;
}

} // namespace

std::string default_cache_dir() { return systemtap_dir() + "/cache"; }

CacheEntry ModuleCache::entry(const std::string &key, const std::string &name,
                              const std::string &sub) const {
  std::string d = dir_ + (sub.empty() ? "" : "/" + sub) + "/" + key.substr(0, 2);
  return CacheEntry{d + "/" + name};
}

bool ModuleCache::lookup(const CacheEntry &e, std::string &why) const {
  why.clear();
  // No log: nothing was stored, or a writer has not finished. Its payloads
  // (if any) are replaced by the next store.
  if (access(e.log_path().c_str(), R_OK) != 0)
    return false;
  auto payloads = read_payloads(e.log_path());
  if (payloads.empty())
    why = e.log_path() + " lists no files";
  for (const auto &[ext, hash] : payloads) {
    if (!why.empty())
      break;
    std::string got = hash.rfind(kSizeTag, 0) == 0 ? size_tag(e.path(ext)) : hash_file(e.path(ext));
    if (got.empty())
      why = e.path(ext) + " is missing";
    else if (got != hash)
      why = e.path(ext) + " does not match its recorded " +
            (hash.rfind(kSizeTag, 0) == 0 ? "size" : "hash");
  }
  if (!why.empty()) {
    remove_entry(e, payloads);
    return false;
  }
  std::error_code ec;
  fs::last_write_time(e.log_path(), fs::file_time_type::clock::now(), ec); // recently used
  return true;
}

bool ModuleCache::store(const CacheEntry &e,
                        const std::vector<std::pair<std::string, std::string>> &files,
                        const std::string &key_inputs, std::string &err,
                        const std::vector<std::string> &size_only) const {
  std::error_code ec;
  fs::create_directories(fs::path(e.stem).parent_path(), ec);
  if (ec) {
    err = "cannot create the cache directory " + fs::path(e.stem).parent_path().string() + ": " +
          ec.message();
    return false;
  }
  std::string log = key_inputs;
  for (const auto &[ext, from] : files) {
    if (!install_file(from, e.path(ext))) {
      err = "cannot copy " + from + " to " + e.path(ext);
      return false;
    }
    bool by_size = std::find(size_only.begin(), size_only.end(), ext) != size_only.end();
    log += kPayloadTag + ext + " " + (by_size ? size_tag(e.path(ext)) : hash_file(e.path(ext))) +
           "\n";
  }
  if (!install_text(log, e.log_path())) {
    err = "cannot write " + e.log_path();
    return false;
  }
  return true;
}

void ModuleCache::clean(bool force, int verbose) const {
  std::error_code ec;
  fs::create_directories(dir_, ec);
  long limit_mb = read_setting(dir_, "cache_mb_limit", kDefaultLimitMb, verbose);
  long interval = read_setting(dir_, "cache_clean_interval_s", kDefaultIntervalS, verbose);
  std::string stamp = dir_ + "/.cacheclean";
  auto now = fs::file_time_type::clock::now();
  auto last = fs::last_write_time(stamp, ec);
  if (!force && !ec) {
    long since = std::chrono::duration_cast<std::chrono::seconds>(now - last).count();
    if (since < interval) {
      if (verbose > 1)
        std::fprintf(stderr, "Cache cleaning skipped, interval not reached %ld s / %ld s.\n",
                     since, interval);
      return;
    }
  }
  std::ofstream(stamp, std::ios::app).close();
  fs::last_write_time(stamp, now, ec);

  // Every complete entry: its log's time (last use) and its total size.
  struct Found {
    fs::file_time_type used;
    uintmax_t bytes;
    CacheEntry e;
    std::vector<std::pair<std::string, std::string>> payloads;
  };
  std::vector<Found> entries;
  uintmax_t total = 0;
  const std::string suffix = "_hash.log";
  for (auto it = fs::recursive_directory_iterator(dir_, ec); !ec && it != fs::end(it);
       it.increment(ec)) {
    std::string p = it->path().string();
    if (!it->is_regular_file() || p.size() <= suffix.size() ||
        p.compare(p.size() - suffix.size(), suffix.size(), suffix) != 0)
      continue;
    Found f{it->last_write_time(), it->file_size(), {p.substr(0, p.size() - suffix.size())}, {}};
    f.payloads = read_payloads(p);
    if (f.payloads.empty())
      continue; // not ours (SystemTap 4.8 writes STEM_hash.log files too)
    for (const auto &[ext, hash] : f.payloads)
      f.bytes += fs::file_size(f.e.path(ext), ec), ec.clear();
    total += f.bytes;
    entries.push_back(std::move(f));
  }
  uintmax_t limit = static_cast<uintmax_t>(limit_mb) << 20;
  if (verbose > 1)
    std::fprintf(stderr, "Cleaning cache, %zu entries, %ju KiB, limit %ld MiB.\n", entries.size(),
                 total >> 10, limit_mb);
  std::sort(entries.begin(), entries.end(),
            [](const Found &a, const Found &b) { return a.used < b.used; });
  for (const Found &f : entries) {
    if (total <= limit)
      break;
    if (verbose > 1)
      std::fprintf(stderr, "Removing cache entry %s (%ju KiB)\n", f.e.stem.c_str(), f.bytes >> 10);
    remove_entry(f.e, f.payloads);
    total -= f.bytes;
  }
}

} // namespace stap::build
