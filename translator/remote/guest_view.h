// What a guest's processes see of the host's files: one rule, used by the
// runner (the guest's /init applies the mount plan made here) and by the
// translator (translator/driver/sysroot.h), which must read the binaries a
// script names (-c, -d, process()) where the guest will find them.
//
// x86_64 guest: its root is the host's, read-only over 9p. Every temporary
// directory of the host (world-writable and sticky: /tmp, /var/tmp) gets a
// writable overlay (the host's files below, a tmpfs above), so a program the
// host built in /tmp runs at the same path and the guest can still write.
//
// i686 guest: its root is the i386 Debian root (scripts/vm/mkroot-i386)
// under a tmpfs overlay, and the host's directories that are not the i386
// root's own system directories appear at their host paths. The rule, from
// the i386 root's dpkg file lists (var/lib/dpkg/info/*.list):
//
//   A path /A or /A/B is a system directory when its packages install
//   something below it (a list names /A/... resp. /A/B/...).
//   Level 1: a host directory or symlink /A that is not a system directory
//            is the host's: the top level is where the host keeps what is
//            not the OS's (/tmp, /home, /root, /srv, /opt, /work...).
//   Level 2: inside a system directory /A, only the places the i386 root
//            leaves empty for local data are the host's: a directory /A/B
//            of the i386 root that its packages list but install nothing
//            below (/var/tmp, /usr/src, /var/spool, /etc/profile.d...),
//            when the host has /A/B as a directory too.
//   Anything else, and everything deeper, is the i386 root's.
//
// So /bin, /lib, /usr, /etc, /var stay the i386 root's (`-c /bin/ls` runs the
// i386 ls), while /tmp, /home, /root, /srv, /opt, /work, /var/tmp, /usr/src
// are the host's. proc, sys, dev and run are the guest's own (its /init
// mounts them), and /host is the whole host root, read-only. Host
// directories that are temporary directories get a writable overlay there.
#pragma once

#include <set>
#include <string>
#include <vector>

namespace stap::remote {

// One step of the guest's mount plan; its /init applies them in order. The
// source of `bind` and `overlay` is the host's file at the same path.
struct GuestMount {
  enum Kind { bind, overlay, link } kind;
  std::string path;   // absolute, as the guest sees it
  std::string target; // `link` only: the symlink's text (the host's, as is)
};

class GuestView {
public:
  // `host_root`: the host's "/" (tests use a scratch directory).
  // `system_root`: the i386 root, or "" for a guest whose root is the host's.
  explicit GuestView(std::string host_root = "/", std::string system_root = "");

  // Does the guest's root come from the host (the x86_64 guest)?
  bool host_is_root() const { return system_root_.empty(); }
  const std::string &host_root() const { return host_root_; }
  const std::string &system_root() const { return system_root_; }

  // The host file that holds `path`, an absolute guest path whose
  // directories are already free of symlinks, "." and ".." (the caller
  // resolves them one component at a time: translator/driver/sysroot.h).
  std::string host_file(const std::string &path) const;

  // The mounts that make the guest see the host this way, level 1 first.
  std::vector<GuestMount> mount_plan() const;

  // The i386 root's system directories: "/usr", "/usr/lib", ... (levels 1
  // and 2 only), read from its dpkg file lists.
  const std::set<std::string> &system_dirs() const { return dpkg_.occupied; }

private:
  bool is_system(const std::string &path) const { return dpkg_.occupied.count(path) != 0; }
  bool is_local_place(const std::string &level2) const;
  bool from_host(const std::string &path) const;

  std::string host_root_, system_root_;
  struct DpkgPaths {
    std::set<std::string> listed;   // level-1 and level-2 paths the lists name
    std::set<std::string> occupied; // ... that have something listed below them
  } dpkg_;
  friend DpkgPaths read_dpkg_paths(const std::string &root);
};

// The level-1 and level-2 directories with something below them, from the
// file lists of the dpkg database under `root` (var/lib/dpkg/info/*.list).
std::set<std::string> read_system_dirs(const std::string &root);

// The plan as the guest's /init reads it: one step a line,
//   bind PATH | overlay PATH | link PATH TARGET
// Paths with white space are left out (the init reads words).
std::string mount_plan_text(const std::vector<GuestMount> &plan);

// Guest-side names the runner mounts itself: never taken from the host.
bool is_guest_own_dir(const std::string &name); // proc, sys, dev, run, host

} // namespace stap::remote
