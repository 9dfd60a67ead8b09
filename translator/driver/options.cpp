#include "driver/options.h"
#include "lang/version.h"
#include "remote/ssh_url.h"
#include "util/number.h"

#include <elfutils/libdwfl.h>
#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <getopt.h>
#include <regex>
#include <sys/stat.h>

namespace stap {
namespace {

void usage(FILE *to) {
  std::fputs(
      "Usage: stap [options] FILE [ARGS ...]     run script file\n"
      "   or: stap [options] -                    run script from stdin\n"
      "   or: stap [options] -e SCRIPT [ARGS ...] run script given on the command line\n"
      "Options:\n"
      "   -p NUM     stop after pass NUM (1-5): parse, elaborate, translate, build, run\n"
      "   -v         more verbose: pass timings; repeat for more\n"
      "   -k         keep the temporary directory\n"
      "   -g         guru mode\n"
      "   --privilege=PRIVILEGE  stapusr, stapsys or stapdev (the default): with\n"
      "              stapusr, only probes and functions safe for unprivileged users\n"
      "   --unprivileged  --privilege=stapusr\n"
      "   --compatible=VERSION  the SystemTap version scripts and tapsets see\n"
      "                  as systemtap_v (for scripts written for an older one)\n"
      "   -u         unoptimized: keep unused code\n"
      "   -w         suppress warnings\n"
      "   -W         turn warnings into errors\n"
      "   -m MODULE  name the module MODULE\n"
      "   -r RELEASE build for kernel RELEASE (or a kernel build directory)\n"
      "   -R DIR     runtime directory\n"
      "   --sysroot=DIR  read the target's files (-c, -d, process()) under DIR\n"
      "   -d OBJECT  add unwind/symbol data for OBJECT (a program or library path;\n"
      "              'kernel' and kernel module names add nothing)\n"
      "   --ldd      add unwind/symbol data for the shared libraries that the -d\n"
      "              objects and the -c command's program need\n"
      "   --all-modules  -d kernel and each loaded module (adds nothing, as those)\n"
      "   --skip-badvars  read $variables that do not resolve, or fault, as 0\n"
      "   -I DIR     look in DIR for tapsets\n"
      "   -D NAME[=VALUE]  define a C macro for the module build\n"
      "   -G NAME=VALUE    set a global variable of the script\n"
      "   -c CMD     run CMD while probing; target() is its pid\n"
      "   -x PID     target() is PID\n"
      "   -o FILE    send the output to FILE\n"
      "   -s MB      per-CPU output buffer size in MB\n"
      "   -S SIZE[,N]  with -o: a new output file FILE.0, FILE.1... each time\n"
      "              one would pass SIZE MB, keeping the newest N\n"
      "   -T SECS    end the session after SECS seconds\n"
      "   --remote=qemu://[RELEASE]  run pass 5 in a qemu virtual machine\n"
      "   --remote=ssh://[USER@]HOST[:PORT]  run pass 5 on HOST with ssh\n"
      "              (repeatable: every host runs the script at once)\n"
      "   --remote-prefix  prefix each host's output lines with \"N: \", N its\n"
      "              index among the --remote options (from 0)\n"
      "   --remote-timeout=S  stop the remote session after S seconds (default 600;\n"
      "              0: no limit; or $STAP_REMOTE_TIMEOUT)\n"
      "   --disable-cache  neither use nor fill the module cache\n"
      "   --poison-cache   ignore the module cache, but fill it\n"
      "   --clean-cache    prune the module cache to its size limit and exit\n"
      "   -l PROBE   list the probe points PROBE matches\n"
      "   -L PROBE   list them with their context variables\n"
      "   -h, --help      show this help\n"
      "   -V, --version   show the version\n",
      to);
}


bool fail(const char *fmt, const char *arg = "") {
  std::fputs("stap: ", stderr);
  std::fprintf(stderr, fmt, arg);
  std::fputs("\n", stderr);
  return false;
}

// Module names become C identifiers and file names: SystemTap allows
// [_a-zA-Z0-9] and at most 55 characters (the kernel's MODULE_NAME_LEN).
bool valid_module_name(const std::string &m) {
  if (m.empty() || m.size() > 55)
    return false;
  for (char c : m)
    if (!(std::isalnum(static_cast<unsigned char>(c)) || c == '_'))
      return false;
  return true;
}

enum LongOnly {
  OPT_REMOTE = 1000,
  OPT_REMOTE_TIMEOUT,
  OPT_DISABLE_CACHE,
  OPT_POISON_CACHE,
  OPT_CLEAN_CACHE,
  OPT_SYSROOT,
  OPT_LDD,
  OPT_ALL_MODULES,
  OPT_REMOTE_PREFIX,
  OPT_SKIP_BADVARS,
  OPT_PRIVILEGE,
  OPT_UNPRIVILEGED,
  OPT_COMPATIBLE,
};

bool is_directory(const std::string &path) {
  struct stat st;
  return stat(path.c_str(), &st) == 0 && S_ISDIR(st.st_mode);
}

} // namespace

std::optional<Options> parse_options(int argc, char **argv, bool &exit_now) {
  static const option longopts[] = {
      {"help", no_argument, nullptr, 'h'},
      {"version", no_argument, nullptr, 'V'},
      {"remote", required_argument, nullptr, OPT_REMOTE},
      {"remote-timeout", required_argument, nullptr, OPT_REMOTE_TIMEOUT},
      {"remote-prefix", no_argument, nullptr, OPT_REMOTE_PREFIX},
      {"disable-cache", no_argument, nullptr, OPT_DISABLE_CACHE},
      {"poison-cache", no_argument, nullptr, OPT_POISON_CACHE},
      {"clean-cache", no_argument, nullptr, OPT_CLEAN_CACHE},
      {"sysroot", required_argument, nullptr, OPT_SYSROOT},
      {"ldd", no_argument, nullptr, OPT_LDD},
      {"all-modules", no_argument, nullptr, OPT_ALL_MODULES},
      {"skip-badvars", no_argument, nullptr, OPT_SKIP_BADVARS},
      {"privilege", required_argument, nullptr, OPT_PRIVILEGE},
      {"unprivileged", no_argument, nullptr, OPT_UNPRIVILEGED},
      {"compatible", required_argument, nullptr, OPT_COMPATIBLE},
      {nullptr, 0, nullptr, 0},
  };
  Options o;
  exit_now = false;
  long n = 0;
  int e_count = 0;
  bool ok = true;
  optind = 1;
  int c;
  while (ok && (c = getopt_long(argc, argv, "hVp:vkguwWm:r:R:I:D:G:c:x:o:s:S:T:e:l:L:d:",
                                longopts, nullptr)) != -1) {
    switch (c) {
    case 'h': usage(stdout); exit_now = true; return o;
    case 'V':
      // What this build can do, as 4.8's "enabled features" line: kernel
      // debuginfo from BTF and DWARF (elfutils), the probe families that
      // need no debuginfo, and the qemu and ssh targets for pass 5.
      std::printf("stap (SystemTap-compatible translator) version %s\n"
                  "language: SystemTap 4.8\n"
                  "elfutils: %s\n"
                  "enabled features: BTF DWARF TRACEPOINTS UPROBES SDT PERF QEMU_REMOTE SSH_REMOTE\n",
                  STAP_VERSION, dwfl_version(nullptr));
      exit_now = true;
      return o;
    case 'p':
      if (!parse_long(optarg, 1, 5, n))
        ok = fail("invalid pass number '%s' (1-5)", optarg);
      o.last_pass = static_cast<int>(n);
      break;
    case 'v': ++o.verbose; break;
    case 'k': o.keep_tmpdir = true; break;
    case 'g': o.guru = true; break;
    case 'u': o.unoptimized = true; break;
    case 'w': o.suppress_warnings = true; break;
    case 'W': o.warnings_fatal = true; break;
    case 'm':
      o.module_name = optarg;
      if (!valid_module_name(o.module_name))
        ok = fail("invalid module name '%s': use 1-55 characters of [_a-zA-Z0-9]", optarg);
      break;
    case 'r': o.kernel_release = optarg; break;
    case 'R': o.runtime_dir = optarg; break;
    case 'I': o.include_dirs.push_back(optarg); break;
    case 'd':
      if (!*optarg)
        ok = fail("-d needs a program, a library, 'kernel' or a kernel module name");
      o.d_objects.push_back(optarg);
      break;
    case OPT_LDD: o.ldd = true; break;
    // 4.8: "-d kernel" and a "-d" for each loaded module, whose symbols
    // the kernel's own tables already give here.
    case OPT_ALL_MODULES: break;
    case OPT_SKIP_BADVARS:
      // The runtime's target reads then give 0 on a fault (runtime/stp_target.h).
      o.skip_badvars = true;
      o.defines.push_back("STP_SKIP_BADVARS");
      break;
    case OPT_PRIVILEGE:
      o.privilege = optarg;
      // SystemTap 4.8's message
      if (o.privilege != "stapusr" && o.privilege != "stapsys" && o.privilege != "stapdev")
        ok = fail("Invalid argument '%s' for --privilege.", optarg);
      break;
    case OPT_UNPRIVILEGED: o.privilege = "stapusr"; break;
    case OPT_COMPATIBLE:
      // The language version `%( systemtap_v ... %)` sees, in the script
      // and the tapsets: an older one brings back what that version had.
      // SystemTap 4.8's message for a newer one.
      if (strverscmp(optarg, lang::kLanguageVersion) > 0)
        ok = fail(("systemtap version " + std::string(lang::kLanguageVersion) +
                   " cannot be compatible with future version %s")
                      .c_str(),
                  optarg);
      o.compatible = optarg;
      break;
    case 'D': o.defines.push_back(optarg); break;
    case 'G':
      if (!std::strchr(optarg, '=') || optarg[0] == '=')
        ok = fail("invalid -G '%s': expected NAME=VALUE", optarg);
      o.global_sets.push_back(optarg);
      break;
    case 'c': o.target_command = optarg; break;
    case 'x':
      if (!parse_long(optarg, 1, 0x7fffffff, n))
        ok = fail("invalid target process ID '%s'", optarg);
      o.target_pid = n;
      break;
    case 'o': o.output_file = optarg; break;
    case 's':
      if (!parse_long(optarg, 1, 4095, n))
        ok = fail("invalid buffer size '%s' (1-4095 MB)", optarg);
      o.buffer_mb = static_cast<unsigned>(n);
      break;
    case 'S':
      // 4.8's check and message.
      if (!std::regex_match(optarg, std::regex("[0-9]+(,[0-9]+)?")))
        ok = fail("Safety pattern mismatch for -S parameter ('%s' vs. '^[0-9]+(,[0-9]+)?$')",
                  optarg);
      o.file_switch = optarg;
      break;
    case 'T':
      if (!parse_long(optarg, 1, 1 << 30, n))
        ok = fail("Invalid timeout interval.");
      o.timeout_s = static_cast<unsigned>(n);
      break;
    case 'e':
      if (++e_count > 1)
        ok = fail("only one -e script may be given");
      o.script_text = optarg;
      break;
    case OPT_REMOTE:
      if (remote::is_ssh_url(optarg))
        o.ssh_remotes.push_back(optarg);
      else if (o.remote.empty())
        o.remote = optarg;
      else
        ok = fail("only one --remote=qemu:// target may be given");
      if (!o.remote.empty() && !o.ssh_remotes.empty())
        ok = fail("--remote=qemu:// and ssh targets cannot be mixed");
      break;
    case OPT_REMOTE_PREFIX: o.remote_prefix = true; break;
    case OPT_REMOTE_TIMEOUT:
      if (!parse_long(optarg, 0, 7 * 24 * 3600, n))
        ok = fail("invalid --remote-timeout '%s' (seconds, 0 for no limit)", optarg);
      o.remote_timeout_s = static_cast<int>(n);
      break;
    case OPT_DISABLE_CACHE: o.disable_cache = true; break;
    case OPT_POISON_CACHE: o.poison_cache = true; break;
    case OPT_CLEAN_CACHE: o.clean_cache = true; break;
    case OPT_SYSROOT:
      o.sysroot = optarg;
      while (o.sysroot.size() > 1 && o.sysroot.back() == '/')
        o.sysroot.pop_back();
      if (o.sysroot.empty() || !is_directory(o.sysroot))
        ok = fail("--sysroot: '%s' is not a directory", optarg);
      break;
    case 'l':
    case 'L':
      o.list_pattern = optarg;
      o.list_vars = c == 'L';
      break;
    default: usage(stderr); return std::nullopt;
    }
  }
  if (!ok)
    return std::nullopt;
  if (!o.target_command.empty() && o.target_pid) {
    fail("-c and -x are mutually exclusive");
    return std::nullopt;
  }
  if (o.guru && o.privilege != "stapdev") { // SystemTap 4.8's message
    fail("You can't specify -g and --privilege=%s together.", o.privilege.c_str());
    return std::nullopt;
  }
  int i = optind;
  if (!o.list_pattern.empty()) {
    // The listing is a script of its own: `probe PATTERN {}`, up to pass 2.
    o.script_text = "probe " + o.list_pattern + " {}";
    o.last_pass = 2;
  }
  if (!o.script_text) {
    if (i >= argc && o.clean_cache) // --clean-cache alone needs no script
      return o;
    if (i >= argc) {
      fail("no script given: use a file name, '-' for stdin, or -e SCRIPT");
      return std::nullopt;
    }
    o.script_file = argv[i++];
  }
  for (; i < argc; ++i)
    o.script_args.push_back(argv[i]);
  return o;
}

} // namespace stap
