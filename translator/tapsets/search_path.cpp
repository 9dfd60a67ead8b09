#include "tapsets/search_path.h"

#include "util/data_dir.h"

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <set>
#include <sstream>

namespace fs = std::filesystem;

namespace stap::tapsets {

std::vector<std::string> default_roots(const std::vector<std::string> &include_dirs) {
  std::vector<std::string> roots;
  const char *env = std::getenv("SYSTEMTAP_TAPSET");
  roots.push_back(env && *env ? env : data_dir("tapset", STAP_TAPSET_DIR));
  if (const char *xdg = std::getenv("XDG_DATA_DIRS")) {
    std::stringstream ss(xdg);
    std::string d;
    while (std::getline(ss, d, ':'))
      if (!d.empty())
        roots.push_back(d + "/systemtap/tapset");
  }
  roots.insert(roots.end(), include_dirs.begin(), include_dirs.end());
  return roots;
}

// 6.1.0-56-amd64 -> {6.1.0-56-amd64, 6.1.0, 6.1, 6}
static std::vector<std::string> version_dirs(const std::string &release) {
  std::vector<std::string> out;
  if (release.empty())
    return out;
  out.push_back(release);
  std::string base = release.substr(0, release.find('-'));
  for (;;) {
    if (out.back() != base)
      out.push_back(base);
    size_t dot = base.rfind('.');
    if (dot == std::string::npos)
      break;
    base.resize(dot);
  }
  return out;
}

std::vector<std::string> search_dirs(const std::string &root, const std::string &kernel_release,
                                     const std::string &arch) {
  std::vector<std::string> versions = version_dirs(kernel_release);
  versions.push_back("");
  std::vector<std::string> dirs;
  for (std::string runtime : {"linux/", ""})
    for (const auto &v : versions)
      for (std::string a : {arch, std::string()}) {
        std::string d = root + "/" + runtime + v + (v.empty() ? "" : "/") + a;
        while (!d.empty() && d.back() == '/')
          d.pop_back();
        if (std::find(dirs.begin(), dirs.end(), d) == dirs.end())
          dirs.push_back(d);
      }
  return dirs;
}

TapsetFiles find_tapset_files(const SearchPathConfig &cfg) {
  TapsetFiles out;
  for (const auto &root : cfg.roots) {
    std::set<std::string> seen; // names already provided by a more specific dir
    for (const auto &dir : search_dirs(root, cfg.kernel_release, cfg.arch)) {
      std::error_code ec;
      if (!fs::is_directory(dir, ec))
        continue;
      std::vector<fs::path> files;
      for (const auto &e : fs::directory_iterator(dir, ec))
        if (e.is_regular_file())
          files.push_back(e.path());
      std::sort(files.begin(), files.end());
      for (const auto &p : files) {
        std::string ext = p.extension().string();
        if ((ext != ".stp" && ext != ".stpm") || !seen.insert(p.filename().string()).second)
          continue;
        (ext == ".stpm" ? out.macro_files : out.script_files).push_back(p.string());
      }
    }
  }
  return out;
}

} // namespace stap::tapsets
