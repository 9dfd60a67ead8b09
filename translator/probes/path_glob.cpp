// See path_glob.h. Component by component: a literal one is appended, a
// pattern is matched against the entries of the directory reached so far,
// listed from that directory's host file.
#include "probes/path_glob.h"

#include "lang/glob.h"

#include <algorithm>
#include <dirent.h>
#include <set>
#include <sys/stat.h>
#include <unistd.h>

namespace stap::probes {

bool has_path_wildcard(const std::string &path) { return lang::has_glob(path); }

namespace {

std::vector<std::string> split_components(const std::string &path) {
  std::vector<std::string> out;
  size_t i = 0;
  while (i < path.size()) {
    size_t j = path.find('/', i);
    if (j == std::string::npos)
      j = path.size();
    if (j > i)
      out.push_back(path.substr(i, j - i));
    i = j + 1;
  }
  return out;
}

// Entries of the target directory `dir` matching `pattern` (no "." or "..";
// hidden names only when the pattern starts with '.', as glob(7)).
std::vector<std::string> matching_entries(const Sysroot &sysroot, const std::string &dir,
                                          const std::string &pattern) {
  std::vector<std::string> out;
  auto d = sysroot.resolve(dir);
  if (!d)
    return out;
  DIR *h = opendir(d->host_path.c_str());
  if (!h)
    return out;
  while (const dirent *e = readdir(h)) {
    std::string name = e->d_name;
    if (name == "." || name == "..")
      continue;
    if (lang::glob_match(pattern, name, /*hidden_needs_dot=*/true))
      out.push_back(name);
  }
  closedir(h);
  std::sort(out.begin(), out.end());
  return out;
}

} // namespace

std::vector<Sysroot::File> glob_target_files(const Sysroot &sysroot, const std::string &pattern) {
  std::string start = "/";
  if (pattern.empty() || pattern[0] != '/') {
    char cwd[4096];
    if (!getcwd(cwd, sizeof cwd))
      return {};
    start = cwd;
  }
  std::vector<std::string> paths = {start};
  for (const std::string &c : split_components(pattern)) {
    std::vector<std::string> next;
    for (const std::string &p : paths) {
      const std::string prefix = p == "/" ? p : p + "/";
      if (!has_path_wildcard(c)) {
        next.push_back(prefix + c);
        continue;
      }
      for (const std::string &name : matching_entries(sysroot, p, c))
        next.push_back(prefix + name);
    }
    paths = std::move(next);
  }
  std::vector<Sysroot::File> out;
  std::set<std::string> seen;
  for (const std::string &p : paths) {
    auto f = sysroot.resolve(p);
    struct stat st;
    if (!f || stat(f->host_path.c_str(), &st) != 0 || !S_ISREG(st.st_mode))
      continue;
    if (seen.insert(f->target_path).second)
      out.push_back(*f);
  }
  return out;
}

} // namespace stap::probes
