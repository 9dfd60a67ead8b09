#include "run/run_remote.h"

#include "remote/vm.h"
#include "run/run.h"
#include "util/number.h"
#include "util/shell.h"

#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <iostream>

namespace stap::run {
namespace {


std::string basename_of(const std::string &p) { return p.substr(p.find_last_of('/') + 1); }

constexpr int kDefaultTimeoutS = 600;

// --remote-timeout, else $STAP_REMOTE_TIMEOUT, else the default; -1 when
// the variable is not a number of seconds.
int session_timeout_s(const Options &opts, std::string &source) {
  if (opts.remote_timeout_s >= 0) {
    source = "--remote-timeout";
    return opts.remote_timeout_s;
  }
  const char *env = std::getenv("STAP_REMOTE_TIMEOUT");
  if (env && *env) {
    source = "STAP_REMOTE_TIMEOUT";
    long n = 0;
    return parse_long(env, 0, 7 * 24 * 3600, n) ? static_cast<int>(n) : -1;
  }
  source = "the default";
  return kDefaultTimeoutS;
}

} // namespace

int run_remote(const Options &opts, const Target &, const std::string &ko, Diagnostics &diag) {
  std::string err, timeout_source;
  int timeout_s = session_timeout_s(opts, timeout_source);
  if (timeout_s < 0) {
    diag.error("STAP_REMOTE_TIMEOUT must be a number of seconds (0 for no limit)");
    return 1;
  }
  if (!opts.file_switch.empty()) {
    diag.error("-S cannot be used with --remote: the output comes back as one stream");
    return 1;
  }
  auto vm = remote::resolve_qemu_url(opts.remote, err);
  if (!vm) {
    diag.error(err);
    return 1;
  }
  // The guest writes -o output into its job directory, not the host's
  // file system: take it from stdout instead and write the file here.
  Options guest = opts;
  guest.output_file.clear();
  std::string cmd = "staprun";
  for (const auto &a : staprun_args(guest, basename_of(ko), {0, opts.remote}))
    cmd += " " + shell_quote(a);

  remote::VmJob job;
  job.name = "stap";
  job.command = cmd;
  job.files = {ko};
  // The session normally ends by itself (exit(), -c); a session that does
  // not, or a guest that hangs, must not block stap forever. At the limit
  // the guest sends staprun SIGTERM, which still runs the end probes.
  job.timeout_s = timeout_s;
  remote::VmOptions vo;
  vo.staprun_x86_64 = tool_path("staprun");
  vo.staprun_i386 = tool_path("staprun32");
  vo.verbose = opts.verbose >= 2;
  remote::VmBatchResult batch;
  try {
    batch = remote::run_vm_batch(*vm, {job}, vo);
  } catch (const remote::VmError &e) {
    diag.error(std::string("--remote=") + opts.remote + ": " + e.what());
    return 1;
  }
  const remote::VmJobResult &r = batch.jobs.at(0);
  if (opts.output_file.empty()) {
    std::cout << r.out << std::flush;
  } else {
    std::ofstream f(opts.output_file, std::ios::binary);
    f << r.out;
  }
  std::cerr << r.err << std::flush;
  if (opts.verbose && !batch.boots.empty())
    std::fprintf(stderr, "Pass 5: guest %s booted and ran in %.1f s\n", vm->release.c_str(),
                 batch.boots.back().host_wall_s);
  if (!r.ran || r.guest_died || r.kernel_problem) {
    diag.error("the guest kernel reported a problem while running the module" +
               (r.note.empty() ? std::string() : " (" + r.note + ")") + ":\n" + r.kernel_log);
    return 1;
  }
  if (r.timed_out) {
    diag.error("--remote=" + opts.remote + ": the session was stopped at its time limit of " +
               std::to_string(timeout_s) + " s (" + timeout_source +
               "; --remote-timeout=S or STAP_REMOTE_TIMEOUT=S changes it, 0 for no limit)");
    return 1;
  }
  return r.exit_status;
}

} // namespace stap::run
