// The `stap` command line, as SystemTap defines it.
#pragma once
#include <optional>
#include <string>
#include <vector>

namespace stap {

struct Options {
  // Input: a script file, "-" for stdin, or -e text.
  std::string script_file;
  std::optional<std::string> script_text; // -e
  std::vector<std::string> script_args;   // $1.. / @1..

  int last_pass = 5;      // -p N
  int verbose = 0;        // -v (repeatable)
  bool keep_tmpdir = false;   // -k
  bool guru = false;          // -g
  // --privilege=stapusr|stapsys|stapdev (--unprivileged: stapusr): what
  // the script may use (passes/check_privilege.h); "stapdev" by default.
  std::string privilege = "stapdev";
  // --compatible=VERSION: the SystemTap language version scripts and
  // tapsets see as `systemtap_v` (kLanguageVersion unless given).
  std::string compatible;
  bool unoptimized = false;   // -u
  bool suppress_warnings = false; // -w
  bool warnings_fatal = false;    // -W
  std::string module_name;    // -m
  std::string kernel_release; // -r RELEASE (or a build dir)
  std::string runtime_dir;    // -R
  // --sysroot=DIR: the target's files (-c, -d, --ldd, process()) are read
  // under DIR, and -r RELEASE's build tree is looked for there first
  // (driver/sysroot.h). Without it an i686 guest target uses the guest's view.
  std::string sysroot;
  // -d MODULE (repeatable): add the unwind and symbol tables of a user-space
  // object (a path) to the module; "kernel" and kernel module names are
  // accepted and add nothing (kernel frames are symbolized from kallsyms).
  std::vector<std::string> d_objects;
  // --ldd: also every shared library the -d objects (and -c's program)
  // need, as the target's dynamic loader finds them (driver/ldd.h).
  bool ldd = false;
  // --skip-badvars: a $var that does not resolve (or faults at run time)
  // reads as 0, with a warning at translation, as in SystemTap 4.8.
  bool skip_badvars = false;
  std::vector<std::string> include_dirs; // -I
  std::vector<std::string> defines;      // -D NAME[=VAL]
  std::vector<std::string> global_sets;  // -G name=val

  // The module cache ($SYSTEMTAP_DIR/cache, docs/build.md).
  bool disable_cache = false; // --disable-cache: neither read nor write it
  bool poison_cache = false;  // --poison-cache: rebuild, but still write it
  bool clean_cache = false;   // --clean-cache: prune it and exit

  // Pass 5.
  std::string target_command; // -c
  long target_pid = 0;        // -x
  std::string output_file;    // -o
  unsigned buffer_mb = 0;     // -s
  std::string file_switch;    // -S SIZE[,N] (staprun's)
  unsigned timeout_s = 0;     // -T SECS
  std::string remote;         // --remote=qemu://[RELEASE] (one)
  // --remote=ssh://[USER@]HOST[:PORT] or [USER@]HOST, repeatable, in order
  // (not with qemu://): built once per kernel release, run on every host.
  std::vector<std::string> ssh_remotes;
  bool remote_prefix = false; // --remote-prefix: "N: " before each host's lines
  // --remote-timeout=S (else $STAP_REMOTE_TIMEOUT, else 600): the guest's
  // session is stopped (SIGTERM: end probes still run) after S seconds;
  // 0 = no limit. -1 = not given.
  int remote_timeout_s = -1;

  // -l PATTERN / -L PATTERN: list the probe points PATTERN matches (and,
  // with -L, their context variables) instead of running a script.
  std::string list_pattern;
  bool list_vars = false;
};

// Parses argv. Errors (unknown options, bad values, conflicting options)
// are printed to stderr and yield nullopt; `exit_now` is set for -h/-V,
// which print and succeed.
std::optional<Options> parse_options(int argc, char **argv, bool &exit_now);

} // namespace stap
