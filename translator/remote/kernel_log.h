// Reading the guest's kernel log and serial console.
#pragma once

#include <string>

namespace stap::remote {

// The console output from the start of job `job_dir` (the guest's init
// prints "STAPVM: job NNN start") to the end: a dying guest's last words.
// Falls back to the last lines when the marker is missing. Carriage
// returns are dropped; at most `max_bytes` are kept, from the end.
std::string console_since_job(const std::string &console, const std::string &job_dir,
                              size_t max_bytes = 32 * 1024);

// The last `lines` lines of the console, without carriage returns.
std::string console_tail(const std::string &console, size_t lines = 60);

} // namespace stap::remote
