// run_vm_batch: boots guests until every job has run.
//
// The guest's init runs the share's jobs in order and powers off. Here we
// watch the share and qemu: a job that outlives its timeout by
// hang_margin_s, or a guest that dies in a job, ends that boot; the job is
// reported as failed and the next boot continues after it (the guest skips
// jobs that have started).
#include "remote/vm.h"

#include "remote/guest_images.h"
#include "remote/job_share.h"
#include "remote/kernel_log.h"
#include "remote/qemu_process.h"
#include "remote/vm_files.h"

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <thread>

namespace fs = std::filesystem;

namespace stap::remote {
namespace {

using Clock = std::chrono::steady_clock;

std::string make_work_dir(const VmOptions &options) {
  std::string base = options.tmp_dir;
  if (base.empty()) {
    const char *t = std::getenv("TMPDIR");
    base = t && *t ? t : "/tmp";
  }
  std::string templ = base + "/stap-vm.XXXXXX";
  if (!mkdtemp(templ.data()))
    throw VmError("cannot create a work directory under " + base);
  return templ;
}

std::string staprun_for(const VmTarget &target, const VmOptions &options) {
  const std::string &s = target.arch == "i386" ? options.staprun_i386 : options.staprun_x86_64;
  return !s.empty() && path_exists(s) ? s : std::string();
}

// One boot: runs jobs from `next` on until the guest powers off, dies or
// hangs. Fills in the results of the jobs it started.
class Boot {
public:
  Boot(const JobShare &share, const std::vector<VmJob> &jobs, const VmOptions &options,
       std::vector<VmJobResult> &results, int index)
      : share_(share), jobs_(jobs), options_(options), results_(results), index_(index) {}

  VmBoot run(const std::vector<std::string> &qemu, const std::string &console_path,
             size_t next) {
    VmBoot boot;
    boot.console_log = console_path;
    QemuProcess guest(qemu, console_path);
    size_t current = next;
    bool current_started = false;
    auto deadline = Clock::now() + std::chrono::seconds(options_.boot_timeout_s);
    bool hung = false;
    for (;;) {
      bool exited = guest.exited();
      // Take in every job that finished since the last look.
      while (current < share_.size()) {
        if (share_.done(current)) {
          harvest(current, boot);
          ++current;
          current_started = false;
          deadline = Clock::now() + std::chrono::seconds(options_.hang_margin_s);
          continue;
        }
        if (share_.started(current) && !current_started) {
          current_started = true;
          int t = jobs_[current].timeout_s;
          deadline = t > 0 ? Clock::now() + std::chrono::seconds(t + options_.hang_margin_s)
                           : Clock::time_point::max();
        }
        break;
      }
      if (exited)
        break;
      if (Clock::now() > deadline) {
        guest.kill();
        hung = true;
        break;
      }
      std::this_thread::sleep_for(std::chrono::milliseconds(100));
    }
    // Results written just before the guest ended.
    while (current < share_.size() && share_.done(current))
      harvest(current++, boot);
    boot.host_wall_s = guest.wall_s();
    std::string console = read_text_file(console_path);
    if (current < share_.size() && share_.started(current)) {
      record_death(current, hung, console, boot);
      boot.end = hung ? "hung" : "died";
    } else if (boot.jobs_started == 0) {
      boot.end = hung ? "hung" : "no jobs started";
    } else {
      boot.end = hung ? "hung" : "poweroff";
    }
    return boot;
  }

private:
  void note_started(size_t i, VmBoot &boot) {
    if (boot.jobs_started++ == 0)
      boot.guest_ready_s = share_.started_uptime(i);
  }

  void harvest(size_t i, VmBoot &boot) {
    note_started(i, boot);
    VmJobResult &r = results_[i];
    share_.read_result(i, r);
    r.boot = index_;
    if (r.timed_out)
      r.note = "killed at its timeout of " + std::to_string(jobs_[i].timeout_s) + " s";
    else if (r.kernel_problem)
      r.note = "kernel problem in the guest's log";
  }

  // The guest died or hung in job `i`: what it left, and the console's last words.
  void record_death(size_t i, bool hung, const std::string &console, VmBoot &boot) {
    note_started(i, boot);
    VmJobResult &r = results_[i];
    share_.read_result(i, r);
    r.boot = index_;
    r.guest_died = true;
    r.exit_status = -1;
    r.kernel_log = console_since_job(console, share_.job_name(i));
    r.kernel_problem = has_kernel_problem(r.kernel_log);
    if (hung) {
      r.timed_out = true;
      r.note = "the guest hung: killed " + std::to_string(options_.hang_margin_s) +
               " s after the job's timeout";
    } else {
      r.note = "the guest died during the job";
    }
  }

  const JobShare &share_;
  const std::vector<VmJob> &jobs_;
  const VmOptions &options_;
  std::vector<VmJobResult> &results_;
  int index_;
};

size_t first_not_started(const std::vector<VmJobResult> &results) {
  size_t i = 0;
  while (i < results.size() && results[i].ran)
    ++i;
  return i;
}

} // namespace

VmBatchResult run_vm_batch(const VmTarget &target, const std::vector<VmJob> &jobs,
                           const VmOptions &options) {
  VmBatchResult batch;
  batch.jobs.resize(jobs.size());
  for (size_t i = 0; i < jobs.size(); ++i)
    batch.jobs[i].name = jobs[i].name;
  if (jobs.empty())
    return batch;

  GuestImages images = prepare_guest_images(target);
  std::string work = make_work_dir(options);
  struct Cleanup {
    std::string dir;
    bool keep;
    ~Cleanup() {
      std::error_code ec;
      if (!keep)
        fs::remove_all(dir, ec);
    }
  } cleanup{work, options.keep};

  JobShare share(work + "/share", jobs, staprun_for(target, options));
  // Read by the guest's /init before the jobs: what it shows of the host.
  write_text_file(share.path() + "/mounts", guest_mount_plan(images));
  auto qemu = qemu_command(target, images, share.path(), options);

  for (size_t next = 0; (next = first_not_started(batch.jobs)) < jobs.size();) {
    int index = static_cast<int>(batch.boots.size());
    std::string console_path = work + "/boot-" + std::to_string(index + 1) + ".console";
    if (options.verbose)
      std::fprintf(stderr, "stap-vm: boot %d of %s (%s), jobs %zu-%zu\n", index + 1,
                   target.release.c_str(), target.arch.c_str(), next + 1, jobs.size());
    Boot boot(share, jobs, options, batch.jobs, index);
    VmBoot record = boot.run(qemu, console_path, next);
    if (options.verbose)
      std::fprintf(stderr, "stap-vm: boot %d: %s after %.1f s, %d job(s) started\n",
                   index + 1, record.end.c_str(), record.host_wall_s, record.jobs_started);
    if (record.jobs_started == 0) {
      // A guest that cannot even start a job would not do better next time.
      std::string console = console_tail(read_text_file(console_path));
      for (size_t i = next; i < jobs.size(); ++i) {
        batch.jobs[i].note = "the guest did not start it (" + record.end + ")";
        batch.jobs[i].kernel_log = console;
        batch.jobs[i].kernel_problem = has_kernel_problem(console);
      }
      batch.boots.push_back(record);
      break;
    }
    batch.boots.push_back(record);
  }
  if (options.keep)
    batch.work_dir = work;
  else
    for (auto &b : batch.boots)
      b.console_log.clear();
  return batch;
}

} // namespace stap::remote
