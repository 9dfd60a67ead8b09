#include "run/run_remote.h"

#include "remote/vm.h"
#include "run/run.h"
#include "util/shell.h"

#include <cstdio>
#include <fstream>
#include <iostream>

namespace stap::run {
namespace {


std::string basename_of(const std::string &p) { return p.substr(p.find_last_of('/') + 1); }

} // namespace

int run_remote(const Options &opts, const Target &, const std::string &ko, Diagnostics &diag) {
  std::string err;
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
  for (const auto &a : staprun_args(guest, basename_of(ko)))
    cmd += " " + shell_quote(a);

  remote::VmJob job;
  job.name = "stap";
  job.command = cmd;
  job.files = {ko};
  job.timeout_s = 0; // the session ends by itself (exit(), -c) as it would here
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
  return r.exit_status;
}

} // namespace stap::run
