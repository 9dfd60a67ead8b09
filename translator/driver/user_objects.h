// The user-space objects a module carries unwind tables for: `-d PATH`,
// and with `--ldd` every shared library they need (and, with `-c CMD`, the
// command's program and its libraries), found as the target's dynamic loader
// finds them (driver/ldd.h).
//
// Every path is read through the session's Sysroot, and each object is kept
// under the path the TARGET's kernel will name it (canonical: /bin/ls is
// /usr/bin/ls on a merged-/usr Debian), which is what the runtime's VMA
// tracker compares with a mapping's d_path (runtime/task/vma_map.h).
#pragma once

#include "driver/sysroot.h"
#include "util/diag.h"

#include <string>
#include <vector>

namespace stap {

struct UserObject {
  std::string target_path; // "/usr/lib/x86_64-linux-gnu/libc.so.6"
  std::string host_path;   // the file read here
  std::string reason;      // "-d /bin/ls", "needed by /usr/bin/ls", ...
  bool is_64 = false;
};

struct UserObjectRequest {
  std::vector<std::string> d_args; // each -d argument, in order
  bool ldd = false;                // --ldd
  std::string command;             // -c CMD (its program, with --ldd)
  std::string target_arch;         // x86_64 | i386
};

// The first word of a -c command (quotes removed): its program.
std::string command_program(const std::string &cmd);

// True when the request may name a user object (-d PATH, a -d name that is
// a file in the working directory, or --ldd with -c): only then is the
// session's sysroot needed.
bool wants_user_objects(const UserObjectRequest &req);

// Resolves the request: -d arguments without a '/' that name no file are
// kernel objects ("kernel", a module name), symbolized from the running
// kernel, and add nothing. Deduplicated by target path, in command-line
// order, each object before the libraries it needs. On any error (missing,
// unreadable, not ELF, not an executable or shared object, an architecture
// the target cannot run, a library the loader would not find) reports to
// `diag` and returns what it could; callers check diag.errors().
std::vector<UserObject> resolve_user_objects(const UserObjectRequest &req,
                                             const Sysroot &sysroot, Diagnostics &diag);

} // namespace stap
