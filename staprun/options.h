// staprun's command line.
#pragma once
#include <optional>
#include <string>
#include <vector>

namespace staprun {

struct Options {
  std::string module_path;            // MODULE.ko
  std::vector<std::string> module_params; // name=value after the module
  std::string command;                // -c CMD
  long target_pid = 0;                // -x PID
  std::string output_file;            // -o FILE
  unsigned file_size_mb = 0;          // -S SIZE[,N]: a new file past SIZE MB
  unsigned max_files = 0;             //              keeping the newest N
  unsigned timeout_s = 0;             // -T SECS: end the session after SECS
  unsigned buffer_mb = 0;             // -s MB per CPU (0 = module default)
  int verbose = 0;                    // -v
  bool suppress_warnings = false;     // -w
};

// Parses argv; on a bad command line returns nullopt after printing why.
std::optional<Options> parse_options(int argc, char **argv);

} // namespace staprun
