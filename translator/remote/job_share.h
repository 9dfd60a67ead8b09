// The writable 9p share a guest takes its jobs from and leaves results in.
//
//   SHARE/bin/staprun        the guest's staprun (first in the jobs' PATH)
//   SHARE/mounts             the guest's mount plan (guest_view.h), by run_vm_batch
//   SHARE/NNN/cmd, timeout   job NNN, written here; its files beside them
//   SHARE/NNN/started, stdout, stderr, status, wall, dmesg, tainted,
//            timed_out, done  written by the guest's init (scripts/vm/init)
#pragma once

#include "remote/vm.h"

#include <string>
#include <vector>

namespace stap::remote {

class JobShare {
public:
  // Creates `dir` with one directory per job (in order) and, if `staprun`
  // is not empty, bin/staprun. Throws VmError for unreadable or clashing files.
  JobShare(const std::string &dir, const std::vector<VmJob> &jobs, const std::string &staprun);

  const std::string &path() const { return dir_; }
  size_t size() const { return count_; }
  // "007": the job's directory name, also its name in the console log.
  std::string job_name(size_t i) const;
  std::string job_path(size_t i) const { return dir_ + "/" + job_name(i); }

  bool started(size_t i) const;
  bool done(size_t i) const;
  // The guest's uptime when the job started, or -1.
  double started_uptime(size_t i) const;

  // Fills `r` with what the guest wrote for job `i` (output so far, for a
  // job whose guest died).
  void read_result(size_t i, VmJobResult &r) const;

private:
  std::string dir_;
  size_t count_;
  int width_;
};

} // namespace stap::remote
