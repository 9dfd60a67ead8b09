#include "remote/job_share.h"

#include "remote/vm_files.h"

#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <set>

namespace fs = std::filesystem;

namespace stap::remote {
namespace {

// Files the runner and the guest's init use in a job directory.
const std::set<std::string> reserved_names = {
    "cmd",  "timeout", "name",    "started",   "stdout", "stderr",
    "status", "wall",  "dmesg",   "tainted",   "timed_out", "done"};

double parse_double(const std::string &s, double fallback) {
  try {
    return std::stod(s);
  } catch (...) {
    return fallback;
  }
}

void copy_job_file(const std::string &file, const std::string &job_dir,
                   std::set<std::string> &seen, const std::string &job_label) {
  std::string base = fs::path(file).filename();
  if (reserved_names.count(base))
    throw VmError(job_label + ": file '" + file + "' would replace the runner's own '" +
                  base + "'");
  if (!seen.insert(base).second)
    throw VmError(job_label + ": two files named '" + base + "'");
  std::error_code ec;
  fs::copy_file(file, job_dir + "/" + base, ec);
  if (ec)
    throw VmError(job_label + ": cannot copy '" + file + "': " + ec.message());
}

} // namespace

JobShare::JobShare(const std::string &dir, const std::vector<VmJob> &jobs,
                   const std::string &staprun)
    : dir_(dir), count_(jobs.size()) {
  // Same-width names so the guest's sorted glob runs them in order.
  width_ = std::max<int>(3, std::to_string(jobs.size()).size());
  std::error_code ec;
  fs::create_directories(dir_, ec);
  if (ec)
    throw VmError("cannot create " + dir_ + ": " + ec.message());
  if (!staprun.empty()) {
    fs::create_directories(dir_ + "/bin");
    fs::copy_file(staprun, dir_ + "/bin/staprun", ec);
    if (ec)
      throw VmError("cannot copy staprun '" + staprun + "': " + ec.message());
  }
  for (size_t i = 0; i < jobs.size(); ++i) {
    const VmJob &job = jobs[i];
    std::string label = "job " + std::to_string(i + 1) + (job.name.empty() ? "" : " (" + job.name + ")");
    std::string path = job_path(i);
    fs::create_directory(path, ec);
    if (ec)
      throw VmError("cannot create " + path + ": " + ec.message());
    write_text_file(path + "/cmd", job.command + "\n");
    write_text_file(path + "/timeout", std::to_string(std::max(job.timeout_s, 0)) + "\n");
    write_text_file(path + "/name", job.name + "\n");
    std::set<std::string> seen;
    for (const auto &f : job.files)
      copy_job_file(f, path, seen, label);
  }
}

std::string JobShare::job_name(size_t i) const {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%0*zu", width_, i + 1);
  return buf;
}

bool JobShare::started(size_t i) const { return path_exists(job_path(i) + "/started"); }

bool JobShare::done(size_t i) const { return path_exists(job_path(i) + "/done"); }

double JobShare::started_uptime(size_t i) const {
  return parse_double(read_text_file(job_path(i) + "/started"), -1);
}

void JobShare::read_result(size_t i, VmJobResult &r) const {
  std::string p = job_path(i);
  r.ran = started(i);
  r.out = read_text_file(p + "/stdout");
  r.err = read_text_file(p + "/stderr");
  r.timed_out = path_exists(p + "/timed_out");
  if (done(i)) {
    r.exit_status = static_cast<int>(parse_double(read_text_file(p + "/status"), -1));
    r.guest_wall_s = parse_double(read_text_file(p + "/wall"), 0);
    r.kernel_log = read_text_file(p + "/dmesg");
    r.kernel_problem = has_kernel_problem(r.kernel_log);
  }
}

} // namespace stap::remote
