// staprun: loads a probe module built by stap, runs the session, unloads it.
#include "module_loader.h"
#include "options.h"
#include "session.h"

#include <cstdio>

int main(int argc, char **argv) {
  auto opts = staprun::parse_options(argc, argv);
  if (!opts)
    return 1;
  std::vector<std::string> params = opts->module_params;
  if (opts->buffer_mb)
    params.push_back("_stp_bufsize=" + std::to_string(opts->buffer_mb << 20));
  // -v: the module reports more (why a backtrace stopped, for one).
  if (opts->verbose)
    params.push_back("_stp_verbose=" + std::to_string(opts->verbose));

  std::string err;
  if (!staprun::load_module(opts->module_path, params, err)) {
    std::fprintf(stderr, "ERROR: %s\n", err.c_str());
    return 1;
  }
  std::string name = staprun::module_name_of(opts->module_path);
  int rc = 1;
  std::string dir = staprun::module_debugfs_dir(name, err);
  if (dir.empty())
    std::fprintf(stderr, "ERROR: %s\n", err.c_str());
  else
    rc = staprun::run_session(*opts, dir);
  if (!staprun::unload_module(name, err)) {
    std::fprintf(stderr, "ERROR: %s\n", err.c_str());
    rc = 1;
  }
  return rc;
}
