// stap-vm: runs shell commands in a disposable qemu guest, for people,
// benchmarks and debugging (stap --remote=qemu:// uses the same library).
#include <algorithm>
#include "remote/batch_file.h"
#include "remote/vm.h"
#include "util/data_dir.h"
#include "util/diag.h"

#include <cstdio>
#include <cstdlib>
#include <getopt.h>
#include <iostream>
#include <unistd.h>

using namespace stap;
using namespace stap::remote;

namespace {

const char usage[] =
    "usage: stap-vm [OPTIONS] -- COMMAND...   run one job, exit with its status\n"
    "       stap-vm [OPTIONS] --batch FILE    run the jobs of FILE in one boot\n"
    "       stap-vm --list                    list the kernels a guest can boot\n"
    "options:\n"
    "  --release REL | --url qemu://[REL]  the guest kernel (default: newest x86_64)\n"
    "  --timeout S       the job's timeout in seconds (default 60; 0: none)\n"
    "  --file F          copy F into the job's directory (repeatable)\n"
    "  --staprun P       staprun for x86_64 guests (default: beside stap-vm)\n"
    "  --staprun32 P     staprun for i386 guests (default: staprun32 beside stap-vm)\n"
    "  --memory MB       guest memory (default 512)\n"
    "  --cpus N          guest CPUs (default 1)\n"
    "  --kernel-args A   appended to the guest kernel's command line\n"
    "  --kernel-log      print each job's kernel log to stderr\n"
    "  --icount          the guest's clock counts instructions (1 ns each), not time\n"
    "  --keep            keep the work directory (job dirs, console logs)\n"
    "  --verbose         report boots and timings on stderr\n"
    "Exit status (one job): the command's; 124 if it timed out; 125 if it could not\n"
    "run or the guest died; 1 if it exited 0 but the kernel reported a problem.\n"
    "Batch files: see translator/remote/batch_file.h or docs/vm.md.\n";

std::string beside_self(const std::string &name) { return self_dir() + "/" + name; }

int list_targets() {
  auto def = default_vm_target("x86_64");
  for (const auto &t : installed_vm_targets())
    std::printf("%s %s%s\n", t.release.c_str(), t.arch.c_str(),
                def && def->release == t.release ? " (default)" : "");
  return 0;
}

void print_job_problems(const VmJobResult &r, bool always_log) {
  if (!r.note.empty())
    std::fprintf(stderr, "stap-vm: %s: %s\n", r.name.c_str(), r.note.c_str());
  if ((always_log || r.kernel_problem || r.guest_died) && !r.kernel_log.empty())
    std::fprintf(stderr, "stap-vm: kernel log of %s:\n%s%s", r.name.c_str(),
                 r.kernel_log.c_str(), r.kernel_log.back() == '\n' ? "" : "\n");
}

void print_boots(const VmBatchResult &batch) {
  for (size_t i = 0; i < batch.boots.size(); ++i) {
    const VmBoot &b = batch.boots[i];
    std::fprintf(stderr,
                 "stap-vm: boot %zu: %s, host wall %.2f s, first job at guest uptime %.2f s, "
                 "%d job(s)\n",
                 i + 1, b.end.c_str(), b.host_wall_s, b.guest_ready_s, b.jobs_started);
  }
}

int single_job_status(const VmJobResult &r) {
  if (r.timed_out)
    return 124;
  if (!r.ran || r.guest_died)
    return 125;
  if (r.kernel_problem && r.exit_status == 0)
    return 1;
  return r.exit_status;
}

void print_batch_job(size_t i, size_t n, const VmJobResult &r, bool kernel_log) {
  std::printf("=== [%zu/%zu] %s: %s, exit %d, %.2f s in the guest (boot %d)\n", i + 1, n,
              r.name.c_str(), r.ok() ? "ok" : "FAILED", r.exit_status, r.guest_wall_s,
              r.boot + 1);
  if (!r.note.empty())
    std::printf("--- note: %s\n", r.note.c_str());
  auto section = [](const char *title, const std::string &text) {
    if (text.empty())
      return;
    std::printf("--- %s\n%s%s", title, text.c_str(), text.back() == '\n' ? "" : "\n");
  };
  section("stdout", r.out);
  section("stderr", r.err);
  if (kernel_log || r.kernel_problem || r.guest_died)
    section("kernel log", r.kernel_log);
}

} // namespace

int main(int argc, char **argv) {
  enum { RELEASE = 256, URL, TIMEOUT, FILE_, STAPRUN, STAPRUN32, MEMORY, KARGS,
         KLOG, KEEP, VERBOSE, BATCH, LIST, HELP, CPUS, ICOUNT };
  static const option longopts[] = {
      {"release", required_argument, nullptr, RELEASE},
      {"url", required_argument, nullptr, URL},
      {"timeout", required_argument, nullptr, TIMEOUT},
      {"file", required_argument, nullptr, FILE_},
      {"staprun", required_argument, nullptr, STAPRUN},
      {"staprun32", required_argument, nullptr, STAPRUN32},
      {"memory", required_argument, nullptr, MEMORY},
      {"cpus", required_argument, nullptr, CPUS},
      {"kernel-args", required_argument, nullptr, KARGS},
      {"kernel-log", no_argument, nullptr, KLOG},
      {"icount", no_argument, nullptr, ICOUNT},
      {"keep", no_argument, nullptr, KEEP},
      {"verbose", no_argument, nullptr, VERBOSE},
      {"batch", required_argument, nullptr, BATCH},
      {"list", no_argument, nullptr, LIST},
      {"help", no_argument, nullptr, HELP},
      {nullptr, 0, nullptr, 0}};
  std::string url = "qemu://", batch_file;
  VmJob job{"command", "", {}, 60};
  VmOptions options;
  options.staprun_x86_64 = beside_self("staprun");
  options.staprun_i386 = beside_self("staprun32");
  bool kernel_log = false;
  int c;
  while ((c = getopt_long(argc, argv, "+", longopts, nullptr)) != -1) {
    switch (c) {
    case RELEASE: url = "qemu://" + std::string(optarg); break;
    case URL: url = optarg; break;
    case TIMEOUT: job.timeout_s = std::atoi(optarg); break;
    case FILE_: job.files.push_back(optarg); break;
    case STAPRUN: options.staprun_x86_64 = optarg; break;
    case STAPRUN32: options.staprun_i386 = optarg; break;
    case MEMORY: options.memory_mb = std::atoi(optarg); break;
    case CPUS: options.cpus = std::max(1, std::atoi(optarg)); break;
    case KARGS: options.kernel_args = optarg; break;
    case KLOG: kernel_log = true; break;
    case ICOUNT: options.icount = true; break;
    case KEEP: options.keep = true; break;
    case VERBOSE: options.verbose = true; break;
    case BATCH: batch_file = optarg; break;
    case LIST: return list_targets();
    case HELP: std::fputs(usage, stdout); return 0;
    default: std::fputs(usage, stderr); return 2;
    }
  }
  std::string command;
  for (int i = optind; i < argc; ++i)
    command += (command.empty() ? "" : " ") + std::string(argv[i]);
  if (batch_file.empty() == command.empty()) {
    std::fputs(batch_file.empty() ? "stap-vm: no command given\n"
                                  : "stap-vm: --batch takes no command\n",
               stderr);
    std::fputs(usage, stderr);
    return 2;
  }

  Diagnostics diag(std::cerr);
  std::vector<VmJob> jobs;
  if (!batch_file.empty()) {
    std::string err;
    auto src = read_source_file(batch_file, false, err);
    if (!src) {
      diag.error(err);
      return 2;
    }
    auto parsed = parse_vm_batch(*src, diag);
    if (!parsed)
      return 2;
    jobs = std::move(*parsed);
  } else {
    job.command = command;
    jobs.push_back(job);
  }

  std::string err;
  auto target = resolve_qemu_url(url, err);
  if (!target) {
    diag.error(err);
    return 2;
  }
  VmBatchResult batch;
  try {
    batch = run_vm_batch(*target, jobs, options);
  } catch (const VmError &e) {
    diag.error(e.what());
    return 125;
  }
  if (options.verbose)
    print_boots(batch);
  if (!batch.work_dir.empty())
    std::fprintf(stderr, "stap-vm: kept %s\n", batch.work_dir.c_str());

  if (batch_file.empty()) {
    const VmJobResult &r = batch.jobs.front();
    std::fwrite(r.out.data(), 1, r.out.size(), stdout);
    std::fflush(stdout);
    std::fwrite(r.err.data(), 1, r.err.size(), stderr);
    print_job_problems(r, kernel_log);
    return single_job_status(r);
  }
  size_t failed = 0;
  for (size_t i = 0; i < batch.jobs.size(); ++i) {
    print_batch_job(i, batch.jobs.size(), batch.jobs[i], kernel_log);
    failed += !batch.jobs[i].ok();
  }
  double wall = 0;
  for (const auto &b : batch.boots)
    wall += b.host_wall_s;
  std::printf("=== %zu job(s), %zu failed, %zu boot(s), %.1f s\n", batch.jobs.size(), failed,
              batch.boots.size(), wall);
  return failed ? 1 : 0;
}
