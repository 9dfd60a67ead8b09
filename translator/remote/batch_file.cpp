#include "remote/batch_file.h"

#include <filesystem>

namespace stap::remote {
namespace {

struct Line {
  std::string keyword, rest;
  uint32_t keyword_col = 0, rest_col = 0;
};

// Splits "  keyword   rest of line" (columns are 1-based).
Line split_line(std::string_view text) {
  Line l;
  size_t i = text.find_first_not_of(" \t");
  if (i == std::string_view::npos)
    return l;
  size_t end = text.find_first_of(" \t", i);
  if (end == std::string_view::npos)
    end = text.size();
  l.keyword = std::string(text.substr(i, end - i));
  l.keyword_col = static_cast<uint32_t>(i + 1);
  size_t r = text.find_first_not_of(" \t", end);
  if (r != std::string_view::npos) {
    size_t last = text.find_last_not_of(" \t\r");
    l.rest = std::string(text.substr(r, last + 1 - r));
    l.rest_col = static_cast<uint32_t>(r + 1);
  } else {
    l.rest_col = static_cast<uint32_t>(end + 1);
  }
  return l;
}

bool parse_seconds(const std::string &s, int &out) {
  if (s.empty() || s.size() > 7 || s.find_first_not_of("0123456789") != std::string::npos)
    return false;
  out = std::stoi(s);
  return true;
}

} // namespace

std::optional<std::vector<VmJob>> parse_vm_batch(const SourceFile &file, Diagnostics &diag) {
  namespace fs = std::filesystem;
  fs::path base = fs::path(file.name()).parent_path();
  std::vector<VmJob> jobs;
  std::vector<SourceLoc> job_locs;
  std::vector<bool> has_run;
  int default_timeout = VmJob{}.timeout_s;
  bool job_timeout_set = false;
  unsigned errors_before = diag.errors();

  size_t line_count = file.line_col(file.text().size()).first;
  for (uint32_t n = 1; n <= line_count; ++n) {
    Line l = split_line(file.line_text(n));
    if (l.keyword.empty() || l.keyword[0] == '#')
      continue;
    SourceLoc at{&file, n, l.keyword_col}, arg{&file, n, l.rest_col};
    if (l.keyword == "job") {
      jobs.push_back(VmJob{l.rest, "", {}, default_timeout});
      job_locs.push_back(at);
      has_run.push_back(false);
      job_timeout_set = false;
      continue;
    }
    if (l.keyword != "timeout" && l.keyword != "file" && l.keyword != "run") {
      diag.error(at, "unknown batch keyword '" + l.keyword + "' (job, timeout, file, run)");
      continue;
    }
    if (l.keyword == "timeout") {
      int s;
      if (!parse_seconds(l.rest, s)) {
        diag.error(arg, "timeout wants a whole number of seconds");
      } else if (jobs.empty()) {
        default_timeout = s;
      } else if (job_timeout_set) {
        diag.error(at, "second timeout for job '" + jobs.back().name + "'");
      } else {
        jobs.back().timeout_s = s;
        job_timeout_set = true;
      }
      continue;
    }
    if (jobs.empty()) {
      diag.error(at, "'" + l.keyword + "' before the first 'job' line");
      continue;
    }
    if (l.rest.empty()) {
      diag.error(arg, "'" + l.keyword + "' needs " +
                          (l.keyword == "file" ? "a path" : "a command line"));
      continue;
    }
    if (l.keyword == "file") {
      fs::path p(l.rest);
      jobs.back().files.push_back(p.is_absolute() ? p.string() : (base / p).string());
    } else if (has_run.back()) {
      diag.error(at, "second 'run' for job '" + jobs.back().name + "'");
    } else {
      jobs.back().command = l.rest;
      has_run.back() = true;
    }
  }
  for (size_t i = 0; i < jobs.size(); ++i)
    if (!has_run[i])
      diag.error(job_locs[i], "job '" + jobs[i].name + "' has no 'run' line");
  if (jobs.empty() && diag.errors() == errors_before)
    diag.error(SourceLoc{&file, 1, 1}, "no jobs in the batch file");
  if (diag.errors() != errors_before)
    return std::nullopt;
  return jobs;
}

} // namespace stap::remote
