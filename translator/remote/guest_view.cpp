#include "remote/guest_view.h"

#include <algorithm>
#include <dirent.h>
#include <fstream>
#include <sys/stat.h>
#include <unistd.h>

namespace stap::remote {
namespace {

std::string join(const std::string &root, const std::string &path) {
  if (root.empty() || root == "/")
    return path;
  return root + path;
}

// The names in a directory, sorted; none if it cannot be read.
std::vector<std::string> list_dir(const std::string &dir) {
  std::vector<std::string> names;
  if (DIR *d = opendir(dir.c_str())) {
    while (dirent *e = readdir(d)) {
      std::string n = e->d_name;
      if (n != "." && n != "..")
        names.push_back(n);
    }
    closedir(d);
  }
  std::sort(names.begin(), names.end());
  return names;
}

enum class Kind { none, dir, link, other };

Kind kind_of(const std::string &path, mode_t *mode = nullptr) {
  struct stat st;
  if (lstat(path.c_str(), &st) != 0)
    return Kind::none;
  if (mode)
    *mode = st.st_mode;
  return S_ISDIR(st.st_mode) ? Kind::dir : S_ISLNK(st.st_mode) ? Kind::link : Kind::other;
}

// World-writable and sticky, as /tmp and /var/tmp are: the guest must be
// able to write there too.
bool is_temporary_dir(mode_t mode) {
  return S_ISDIR(mode) && (mode & S_ISVTX) && (mode & S_IWOTH);
}

// The first `n` components of an absolute path, "/a/b"; "" if it has fewer.
std::string prefix(const std::string &path, int n) {
  size_t at = 0;
  for (int i = 0; i < n; ++i) {
    if (at >= path.size() || path[at] != '/')
      return "";
    size_t next = path.find('/', at + 1);
    if (next == at + 1 || at + 1 == path.size())
      return ""; // an empty component: "//" or a trailing "/"
    at = next == std::string::npos ? path.size() : next;
  }
  return path.substr(0, at);
}

bool plain_name(const std::string &name) {
  return name.find_first_of(" \t\n\r") == std::string::npos;
}

} // namespace

bool is_guest_own_dir(const std::string &name) {
  return name == "proc" || name == "sys" || name == "dev" || name == "run" || name == "host";
}

GuestView::DpkgPaths read_dpkg_paths(const std::string &root) {
  GuestView::DpkgPaths paths;
  std::string info = join(root, "/var/lib/dpkg/info");
  for (const std::string &name : list_dir(info)) {
    if (name.size() < 6 || name.compare(name.size() - 5, 5, ".list") != 0)
      continue;
    std::ifstream in(info + "/" + name);
    std::string line;
    while (std::getline(in, line)) {
      // "/usr/bin/ls" lists /usr and /usr/bin and occupies both; "/usr/src"
      // alone lists /usr/src and occupies /usr.
      std::string one = prefix(line, 1), two = prefix(line, 2);
      if (one.empty() || one == "/.")
        continue;
      paths.listed.insert(one);
      if (line.size() > one.size())
        paths.occupied.insert(one);
      if (!two.empty()) {
        paths.listed.insert(two);
        if (line.size() > two.size())
          paths.occupied.insert(two);
      }
    }
  }
  return paths;
}

std::set<std::string> read_system_dirs(const std::string &root) {
  return read_dpkg_paths(root).occupied;
}

GuestView::GuestView(std::string host_root, std::string system_root)
    : host_root_(std::move(host_root)), system_root_(std::move(system_root)) {
  while (host_root_.size() > 1 && host_root_.back() == '/')
    host_root_.pop_back();
  while (system_root_.size() > 1 && system_root_.back() == '/')
    system_root_.pop_back();
  if (!system_root_.empty())
    dpkg_ = read_dpkg_paths(system_root_);
}

bool GuestView::is_local_place(const std::string &two) const {
  return dpkg_.listed.count(two) && !is_system(two) &&
         kind_of(join(system_root_, two)) == Kind::dir &&
         kind_of(join(host_root_, two)) == Kind::dir;
}

bool GuestView::from_host(const std::string &path) const {
  std::string one = prefix(path, 1), two = prefix(path, 2);
  if (one.empty() || is_guest_own_dir(one.substr(1)))
    return false;
  if (!is_system(one)) {
    Kind k = kind_of(join(host_root_, one));
    return k == Kind::dir || k == Kind::link;
  }
  return !two.empty() && is_local_place(two);
}

std::string GuestView::host_file(const std::string &path) const {
  if (host_is_root())
    return join(host_root_, path);
  if (path == "/host" || path.rfind("/host/", 0) == 0)
    return join(host_root_, path.size() == 5 ? "/" : path.substr(5));
  return join(from_host(path) ? host_root_ : system_root_, path);
}

std::vector<GuestMount> GuestView::mount_plan() const {
  std::vector<GuestMount> level1, level2;
  auto take_dir = [&](std::vector<GuestMount> &into, const std::string &path, mode_t mode) {
    into.push_back({is_temporary_dir(mode) ? GuestMount::overlay : GuestMount::bind, path, ""});
  };
  for (const std::string &name : list_dir(host_root_)) {
    if (is_guest_own_dir(name) || !plain_name(name))
      continue;
    std::string one = "/" + name;
    mode_t mode = 0;
    Kind k = kind_of(join(host_root_, one), &mode);
    if (host_is_root()) {
      // Everything is the host's already: only temporary directories need
      // a writable layer, at level 1 or inside a level-1 directory.
      if (k != Kind::dir)
        continue;
      if (is_temporary_dir(mode)) {
        level1.push_back({GuestMount::overlay, one, ""});
        continue;
      }
      for (const std::string &sub : list_dir(join(host_root_, one))) {
        mode_t m = 0;
        if (plain_name(sub) && kind_of(join(host_root_, one + "/" + sub), &m) == Kind::dir &&
            is_temporary_dir(m))
          level2.push_back({GuestMount::overlay, one + "/" + sub, ""});
      }
      continue;
    }
    if (!is_system(one)) {
      if (k == Kind::dir) {
        take_dir(level1, one, mode);
      } else if (k == Kind::link) {
        char buf[4096];
        ssize_t n = readlink(join(host_root_, one).c_str(), buf, sizeof buf - 1);
        if (n > 0 && plain_name(std::string(buf, n)))
          level1.push_back({GuestMount::link, one, std::string(buf, n)});
      }
      continue;
    }
    if (k != Kind::dir)
      continue;
    for (const std::string &sub : list_dir(join(host_root_, one))) {
      std::string two = one + "/" + sub;
      mode_t m = 0;
      if (plain_name(sub) && is_local_place(two)) {
        kind_of(join(host_root_, two), &m);
        take_dir(level2, two, m);
      }
    }
  }
  level1.insert(level1.end(), level2.begin(), level2.end());
  return level1;
}

std::string mount_plan_text(const std::vector<GuestMount> &plan) {
  std::string text;
  for (const GuestMount &m : plan) {
    if (!plain_name(m.path) || !plain_name(m.target))
      continue;
    switch (m.kind) {
    case GuestMount::bind: text += "bind " + m.path + "\n"; break;
    case GuestMount::overlay: text += "overlay " + m.path + "\n"; break;
    case GuestMount::link: text += "link " + m.path + " " + m.target + "\n"; break;
    }
  }
  return text;
}

} // namespace stap::remote
