// Starting a program (no shell) with its standard files redirected: the one
// fork-and-exec shape the VM runner (qemu, its console to a file) and the
// ssh transport (ssh and scp, their output on pipes) share.
#pragma once
#include <string>
#include <sys/types.h>
#include <vector>

namespace stap {

// The child's standard input, output and error: each an open descriptor
// that becomes fd 0, 1 or 2 in the child, or -1 for /dev/null.
struct ChildFiles {
  int in = -1, out = -1, err = -1;
};

enum ChildFlags : unsigned {
  kChildOwnGroup = 1,       // a process group of its own: a terminal's ^C is not its
  kChildDiesWithParent = 2, // SIGKILL when the parent dies (PR_SET_PDEATHSIG)
};

// Forks and execs argv[0], looked up in PATH. A failed exec prints "cannot
// run NAME: why" on the child's stderr and exits 127. Only the three files
// are passed on when the parent's other descriptors are close-on-exec (as
// every pipe and file made here is). Returns the pid, or -1 (errno set).
pid_t spawn_child(const std::vector<std::string> &argv, const ChildFiles &files,
                  unsigned flags = 0);

// A pipe whose two ends are close-on-exec: pipe_fds[0] to read, [1] to write.
bool make_pipe(int pipe_fds[2]);

// Starts argv with its stdout and stderr on pipes (stdin /dev/null), for
// the caller to read: `out_fd`, `err_fd` (close-on-exec, the caller
// closes them). Returns the pid, or -1.
pid_t spawn_child_piped(const std::vector<std::string> &argv, unsigned flags, int &out_fd,
                        int &err_fd);

// Runs argv to completion (stdin /dev/null); its stdout into `out` and its
// stderr into `err`, read together so that neither pipe fills. Returns the
// exit status, or -1 if it could not run or was killed.
int run_child_captured(const std::vector<std::string> &argv, unsigned flags, std::string &out,
                       std::string &err);

// Waits for `pid` (through EINTR); its exit status, or -1 if killed.
int wait_child(pid_t pid);

} // namespace stap
