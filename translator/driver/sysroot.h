// Where the translator reads the files the target's processes will see:
// SystemTap's --sysroot=DIR, and the view of our i686 guest.
//
// A script names target binaries by the paths the target sees: `-c CMD`,
// `-d PATH`, `--ldd` (the libraries the loader would find), process("PATH").
// When the target runs elsewhere, the same path can name another file here:
// in the i686 guest, /bin/ls is the i386 root's ls, while /tmp/x/prog is the
// host's /tmp/x/prog (translator/remote/guest_view.h has the rule). So every
// such path goes through Sysroot::resolve() before the translator opens it,
// and the module keeps the TARGET path (what the target's maps show).
//
//   Sysroot s = session_sysroot(opts, target, diag);   // once per session
//   if (auto f = s.resolve("/bin/ls"))
//     open(f->host_path) ... record f->target_path ("/usr/bin/ls")
//
// For --ldd, resolve the loader's files through it as well: the sysroot's
// /etc/ld.so.cache (resolve("/etc/ld.so.cache")), then each DT_NEEDED name in
// the directories the target's loader searches (resolve("/lib/i386-linux-gnu/
// libc.so.6"), ...).
#pragma once

#include "driver/options.h"
#include "driver/target.h"
#include "util/diag.h"

#include <functional>
#include <optional>
#include <string>

namespace stap {

class Sysroot {
public:
  // The host's own files: target paths are host paths (symlinks resolved).
  Sysroot();
  // --sysroot=DIR: every target path is under DIR; an absolute symlink
  // inside DIR points into DIR too, as it would for a process chrooted there.
  static Sysroot directory(const std::string &dir);
  // The i686 guest: the i386 root `i386_root` for its system directories,
  // the host's files (under `host_root`) for the others.
  static Sysroot i686_guest(const std::string &i386_root, const std::string &host_root = "/");

  struct File {
    std::string target_path; // canonical, as the target sees it: "/usr/bin/ls"
    std::string host_path;   // the file to open here
  };
  // Resolves `path` as the target would: absolute, or relative to the
  // translator's working directory (which the guests also see at the same
  // path); every symlink followed the way the target follows it, "." and
  // ".." taken after that. Nothing when the target would get an error
  // (a missing component, a non-directory in the middle, 40 links deep).
  std::optional<File> resolve(const std::string &path) const;

  // The host file for `path`, or "" (resolve(path)->host_path).
  std::string host_path(const std::string &path) const;

  // "" for the host's own files; otherwise what -v prints about it.
  const std::string &description() const { return description_; }

private:
  // The host file of a target path whose directories are resolved already.
  std::function<std::string(const std::string &)> layer_;
  std::string description_;
};

// The session's sysroot: --sysroot=DIR when given; for an i386 target (our
// i686 guest: --remote=qemu://REL-686 or -r REL-686) the guest's view, which
// may build the i386 root first (scripts/vm/mkroot-i386, once, about a
// minute); otherwise the host's own files. On failure reports to `diag` and
// returns nothing.
std::optional<Sysroot> session_sysroot(const Options &opts, const Target &target,
                                       Diagnostics &diag);

} // namespace stap
