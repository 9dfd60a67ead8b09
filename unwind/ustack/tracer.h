// Running a command under ptrace until a chosen system call (or its exit),
// and stopping every thread of a running process.
#pragma once

#include <functional>
#include <optional>
#include <string>
#include <sys/types.h>
#include <vector>

namespace ustack {

// Called while thread tid of process pid is stopped.
using StopFn = std::function<void(pid_t pid, pid_t tid)>;

struct LaunchOptions {
  std::vector<std::string> argv;
  std::optional<std::string> syscall; // none: stop when the process exits
  bool no_randomize = false;          // like gdb's disable-randomization
};

// Runs the command, calls at_stop once at the first entry of the syscall
// (in any thread) or at the exit of the main thread, then lets the command
// run to completion. Returns the command's exit status (128+sig if killed),
// or -1 with err set.
int run_command(const LaunchOptions &opts, const StopFn &at_stop,
                std::string &err);

// Stops every thread of pid in turn, calls each_thread for it, and detaches.
// Returns false with err set if the process cannot be attached.
bool attach_process(pid_t pid, const StopFn &each_thread, std::string &err);

} // namespace ustack
