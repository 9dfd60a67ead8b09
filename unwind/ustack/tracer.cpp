// The ptrace loops; see tracer.h.
#include "tracer.h"

#include "syscall_names.h"

#include <cerrno>
#include <csignal>
#include <cstring>
#include <dirent.h>
#include <set>
#include <sys/personality.h>
#include <sys/ptrace.h>
#include <sys/wait.h>
#include <unistd.h>

namespace ustack {

namespace {

constexpr uint32_t kAuditArchX86_64 = 0xc000003eu;
constexpr uint32_t kAuditArchI386 = 0x40000003u;

[[noreturn]] void exec_child(const LaunchOptions &opts) {
  std::vector<char *> argv;
  for (const std::string &a : opts.argv)
    argv.push_back(const_cast<char *>(a.c_str()));
  argv.push_back(nullptr);
  if (ptrace(PTRACE_TRACEME, 0, nullptr, nullptr) != 0)
    _exit(126);
  if (opts.no_randomize)
    personality(ADDR_NO_RANDOMIZE);
  raise(SIGSTOP); // let the parent set options before exec
  execvp(argv[0], argv.data());
  _exit(127);
}

// Is the syscall-stop of tid the entry of the wanted syscall?
bool at_wanted_entry(pid_t tid, const std::string &name) {
  __ptrace_syscall_info info;
  std::memset(&info, 0, sizeof info);
  if (ptrace(PTRACE_GET_SYSCALL_INFO, tid, sizeof info, &info) <= 0 ||
      info.op != PTRACE_SYSCALL_INFO_ENTRY)
    return false;
  Abi abi;
  if (info.arch == kAuditArchX86_64)
    abi = Abi::X86_64;
  else if (info.arch == kAuditArchI386)
    abi = Abi::I386;
  else
    return false;
  auto nr = syscall_number(abi, name);
  return nr && static_cast<uint64_t>(*nr) == info.entry.nr;
}

} // namespace

int run_command(const LaunchOptions &opts, const StopFn &at_stop,
                std::string &err) {
  if (opts.syscall && !syscall_number(Abi::X86_64, *opts.syscall) &&
      !syscall_number(Abi::I386, *opts.syscall)) {
    err = "unknown system call '" + *opts.syscall + "'";
    return -1;
  }
  pid_t pid = fork();
  if (pid < 0) {
    err = std::string("fork: ") + std::strerror(errno);
    return -1;
  }
  if (pid == 0)
    exec_child(opts);
  int status;
  if (waitpid(pid, &status, 0) != pid || !WIFSTOPPED(status)) {
    err = "child did not stop";
    return -1;
  }
  long options = PTRACE_O_TRACESYSGOOD | PTRACE_O_TRACECLONE |
                 PTRACE_O_TRACEEXEC | PTRACE_O_EXITKILL;
  if (!opts.syscall)
    options |= PTRACE_O_TRACEEXIT;
  if (ptrace(PTRACE_SETOPTIONS, pid, nullptr, options) != 0) {
    err = std::string("ptrace: ") + std::strerror(errno);
    kill(pid, SIGKILL);
    return -1;
  }
  bool exec_seen = false, done = false;
  std::set<pid_t> known{pid}, fresh;
  auto resume = [&](pid_t tid, int sig) {
    __ptrace_request how = (opts.syscall && !done) ? PTRACE_SYSCALL : PTRACE_CONT;
    ptrace(how, tid, nullptr, reinterpret_cast<void *>(static_cast<long>(sig)));
  };
  resume(pid, 0);
  int exit_status = -1;
  for (;;) {
    pid_t tid = waitpid(-1, &status, __WALL);
    if (tid < 0) {
      if (errno == EINTR)
        continue;
      break; // ECHILD: every tracee is gone
    }
    if (WIFEXITED(status) || WIFSIGNALED(status)) {
      known.erase(tid);
      if (tid == pid)
        exit_status = WIFEXITED(status) ? WEXITSTATUS(status)
                                        : 128 + WTERMSIG(status);
      continue;
    }
    if (!WIFSTOPPED(status))
      continue;
    int sig = WSTOPSIG(status), event = status >> 16;
    if (sig == (SIGTRAP | 0x80)) {
      if (!done && exec_seen && at_wanted_entry(tid, *opts.syscall)) {
        at_stop(pid, tid);
        done = true;
      }
      resume(tid, 0);
    } else if (sig == SIGTRAP && event) {
      if (event == PTRACE_EVENT_EXEC)
        exec_seen = true;
      else if (event == PTRACE_EVENT_EXIT && tid == pid && !done && exec_seen) {
        at_stop(pid, tid);
        done = true;
      } else if (event == PTRACE_EVENT_CLONE) {
        unsigned long child = 0;
        ptrace(PTRACE_GETEVENTMSG, tid, nullptr, &child);
        if (!known.count(static_cast<pid_t>(child)))
          fresh.insert(static_cast<pid_t>(child));
        known.insert(static_cast<pid_t>(child));
      }
      resume(tid, 0);
    } else if (sig == SIGSTOP && (fresh.count(tid) || !known.count(tid))) {
      // A new thread's first stop: tracing artefact, not a real signal.
      if (!known.count(tid))
        known.insert(tid); // stop seen before the clone event
      else
        fresh.erase(tid);
      resume(tid, 0);
    } else {
      resume(tid, sig); // a real signal: deliver it
    }
  }
  return exit_status;
}

bool attach_process(pid_t pid, const StopFn &each_thread, std::string &err) {
  std::string dir = "/proc/" + std::to_string(pid) + "/task";
  DIR *d = opendir(dir.c_str());
  if (!d) {
    err = "no process " + std::to_string(pid);
    return false;
  }
  std::vector<pid_t> tids;
  while (dirent *e = readdir(d))
    if (e->d_name[0] != '.')
      tids.push_back(static_cast<pid_t>(std::stol(e->d_name)));
  closedir(d);
  bool any = false;
  for (pid_t tid : tids) {
    if (ptrace(PTRACE_SEIZE, tid, nullptr, nullptr) != 0)
      continue; // thread exited meanwhile, or not permitted
    int status;
    if (ptrace(PTRACE_INTERRUPT, tid, nullptr, nullptr) == 0 &&
        waitpid(tid, &status, __WALL) == tid && WIFSTOPPED(status)) {
      each_thread(pid, tid);
      any = true;
    }
    ptrace(PTRACE_DETACH, tid, nullptr, nullptr);
  }
  if (!any)
    err = "cannot attach to " + std::to_string(pid) + ": " + std::strerror(errno);
  return any;
}

} // namespace ustack
