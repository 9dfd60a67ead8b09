#include "options.h"

#include "util/number.h"

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <getopt.h>

namespace staprun {

using stap::parse_long;

static void usage(FILE *to) {
  std::fputs("Usage: staprun [-v] [-w] [-c CMD | -x PID] [-o FILE [-S MB[,N]]] [-s MB] "
             "[-T SECS] MODULE.ko [name=value ...]\n", to);
}


std::optional<Options> parse_options(int argc, char **argv) {
  Options o;
  long n = 0;
  int c;
  // '+': stop at the module name, so module parameters are never options.
  while ((c = getopt(argc, argv, "+vwc:x:o:s:S:T:h")) != -1) {
    switch (c) {
    case 'v': ++o.verbose; break;
    case 'w': o.suppress_warnings = true; break;
    case 'c': o.command = optarg; break;
    case 'x':
      if (!parse_long(optarg, 1, 0x7fffffff, n)) {
        std::fprintf(stderr, "staprun: invalid target process ID '%s'\n", optarg);
        return std::nullopt;
      }
      o.target_pid = n;
      break;
    case 'o': o.output_file = optarg; break;
    case 's':
      if (!parse_long(optarg, 1, 4095, n)) {
        std::fprintf(stderr, "staprun: invalid buffer size '%s' (1..4095 MB)\n", optarg);
        return std::nullopt;
      }
      o.buffer_mb = static_cast<unsigned>(n);
      break;
    case 'S': {
      // SIZE[,N], as SystemTap 4.8's: megabytes, then a number of files.
      std::string v = optarg, size = v.substr(0, v.find(','));
      long files = 0;
      if (!parse_long(size.c_str(), 1, 1 << 20, n) ||
          (v.find(',') != std::string::npos &&
           !parse_long(v.substr(v.find(',') + 1).c_str(), 1, 1 << 20, files))) {
        std::fprintf(stderr, "staprun: invalid -S '%s' (SIZE[,N]: megabytes, files)\n", optarg);
        return std::nullopt;
      }
      o.file_size_mb = static_cast<unsigned>(n);
      o.max_files = static_cast<unsigned>(files);
      break;
    }
    case 'T':
      if (!parse_long(optarg, 1, 1 << 30, n)) {
        std::fprintf(stderr, "staprun: invalid timeout '%s' (seconds)\n", optarg);
        return std::nullopt;
      }
      o.timeout_s = static_cast<unsigned>(n);
      break;
    case 'h': usage(stdout); std::exit(0);
    default: usage(stderr); return std::nullopt;
    }
  }
  if (!o.command.empty() && o.target_pid) {
    std::fputs("staprun: -c and -x are mutually exclusive\n", stderr);
    return std::nullopt;
  }
  if (o.file_size_mb && o.output_file.empty()) {
    std::fputs("staprun: -S needs -o FILE\n", stderr);
    return std::nullopt;
  }
  if (optind >= argc) {
    usage(stderr);
    return std::nullopt;
  }
  o.module_path = argv[optind++];
  for (; optind < argc; ++optind) {
    if (!std::strchr(argv[optind], '=')) {
      std::fprintf(stderr, "staprun: module parameter '%s' is not name=value\n", argv[optind]);
      return std::nullopt;
    }
    o.module_params.push_back(argv[optind]);
  }
  return o;
}

} // namespace staprun
