#include "driver/sysroot.h"

#include "remote/guest_images.h"
#include "remote/guest_view.h"
#include "remote/vm.h"

#include <climits>
#include <deque>
#include <memory>
#include <sys/stat.h>
#include <sys/utsname.h>
#include <unistd.h>
#include <vector>

namespace stap {
namespace {

constexpr int kMaxLinks = 40; // the kernel's limit (MAXSYMLINKS)

std::string strip_slashes(std::string dir) {
  while (dir.size() > 1 && dir.back() == '/')
    dir.pop_back();
  return dir;
}

void push_components(const std::string &path, std::deque<std::string> &todo) {
  std::vector<std::string> parts;
  size_t at = 0;
  while (at <= path.size()) {
    size_t slash = path.find('/', at);
    if (slash == std::string::npos)
      slash = path.size();
    if (slash > at)
      parts.push_back(path.substr(at, slash - at));
    at = slash + 1;
  }
  todo.insert(todo.begin(), parts.begin(), parts.end());
}

std::string join_components(const std::vector<std::string> &parts) {
  std::string out;
  for (const auto &p : parts)
    out += "/" + p;
  return out.empty() ? "/" : out;
}

bool host_is_i386() {
  utsname u{};
  uname(&u);
  std::string m = u.machine;
  return m.size() == 4 && m[0] == 'i' && m.substr(2) == "86";
}

} // namespace

Sysroot::Sysroot() : layer_([](const std::string &p) { return p; }) {}

Sysroot Sysroot::directory(const std::string &dir) {
  Sysroot s;
  std::string root = strip_slashes(dir);
  if (root != "/")
    s.layer_ = [root](const std::string &p) { return p == "/" ? root : root + p; };
  s.description_ = "--sysroot=" + root;
  return s;
}

Sysroot Sysroot::i686_guest(const std::string &i386_root, const std::string &host_root) {
  Sysroot s;
  auto view = std::make_shared<remote::GuestView>(host_root, i386_root);
  s.layer_ = [view](const std::string &p) { return view->host_file(p); };
  s.description_ = "the i686 guest's view: " + strip_slashes(i386_root) +
                   " for its system directories, the host's files for the others";
  return s;
}

std::optional<Sysroot::File> Sysroot::resolve(const std::string &path) const {
  if (path.empty())
    return std::nullopt;
  std::deque<std::string> todo;
  push_components(path, todo);
  if (path[0] != '/') {
    char cwd[PATH_MAX];
    if (!getcwd(cwd, sizeof cwd))
      return std::nullopt;
    push_components(cwd, todo);
  }
  std::vector<std::string> done; // resolved components: real directories
  int links = 0;
  while (!todo.empty()) {
    std::string c = todo.front();
    todo.pop_front();
    if (c == ".")
      continue;
    if (c == "..") {
      if (!done.empty())
        done.pop_back();
      continue;
    }
    done.push_back(c);
    std::string host = layer_(join_components(done));
    struct stat st;
    if (lstat(host.c_str(), &st) != 0)
      return std::nullopt;
    if (S_ISLNK(st.st_mode)) {
      if (++links > kMaxLinks)
        return std::nullopt;
      std::string text(PATH_MAX, '\0');
      ssize_t n = readlink(host.c_str(), text.data(), text.size());
      if (n <= 0)
        return std::nullopt;
      text.resize(n);
      done.pop_back();
      if (text[0] == '/')
        done.clear();
      push_components(text, todo);
      continue;
    }
    if (!S_ISDIR(st.st_mode) && !todo.empty()) {
      // "file/next": ENOTDIR, unless only "." / ".." follow... which the
      // kernel also refuses.
      return std::nullopt;
    }
  }
  File f;
  f.target_path = join_components(done);
  f.host_path = layer_(f.target_path);
  return f;
}

std::string Sysroot::host_path(const std::string &path) const {
  auto f = resolve(path);
  return f ? f->host_path : std::string();
}

std::optional<Sysroot> session_sysroot(const Options &opts, const Target &target,
                                       Diagnostics &diag) {
  if (!opts.sysroot.empty())
    return Sysroot::directory(opts.sysroot);
  // An ssh host's files are read here, at the same paths, as SystemTap does.
  bool runs_in_i686_guest = target.arch == "i386" && opts.ssh_remotes.empty() &&
                            (!opts.remote.empty() || !host_is_i386());
  if (!runs_in_i686_guest)
    return Sysroot();
  try {
    return Sysroot::i686_guest(remote::i386_guest_root());
  } catch (const remote::VmError &e) {
    diag.error(std::string("cannot read the i686 guest's files: ") + e.what());
    return std::nullopt;
  }
}

} // namespace stap
