// Running a loaded module: start it, copy its output, stop it.
#pragma once
#include "options.h"

#include <string>

namespace staprun {

// Talks to the module through DIR/ctl and DIR/data until the session ends
// (exit() in the script, end of the -c command, SIGINT/SIGTERM/SIGHUP).
// Returns staprun's exit status: 0, or 1 if the module reported errors or
// the session could not be run.
int run_session(const Options &opts, const std::string &debugfs_dir);

} // namespace staprun
