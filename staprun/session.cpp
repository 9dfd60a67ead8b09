#include "session.h"

#include "module_loader.h"
#include "output_files.h"
#include "stdin_forward.h"

#include <cerrno>
#include <csignal>
#include <cstdio>
#include <cstring>
#include <ctime>
#include <fcntl.h>
#include <poll.h>

#include <algorithm>
#include <chrono>
#include <memory>
#include <sys/signalfd.h>
#include <sys/wait.h>
#include <unistd.h>
#include <vector>
#include <wordexp.h>

namespace staprun {
namespace {

// A command the shell can replace itself with: no list (`a; b`, `a && b`,
// `a | b`, `a &`) and no compound command (`for`, `if`, `(...)`, `{...}`).
// Redirections are fine: `exec cmd > file` keeps them.
bool is_simple_command(const std::string &cmd) {
  if (cmd.find_first_of(";&|\n") != std::string::npos)
    return false;
  size_t b = cmd.find_first_not_of(" \t");
  if (b == std::string::npos)
    return true;
  size_t e = cmd.find_first_of(" \t", b);
  std::string first = cmd.substr(b, e == std::string::npos ? std::string::npos : e - b);
  for (const char *kw : {"for", "while", "until", "if", "case", "{", "!"})
    if (first == kw)
      return false;
  return first[0] != '(';
}

// The -c command: forked before the session starts, held on a pipe until
// the probes are armed, then run. As in SystemTap, a command of plain
// words (expanded as the shell would, by wordexp(): quotes, variables,
// globs, `~`; no command substitution) is exec'd directly, so that the
// target's pid runs nothing but the program: not even a shell's start-up
// system calls (dash calls getppid(), for one), which a script probing
// `pid() == target()` would otherwise see first. Anything else (`a; b`,
// redirections, `$(...)`) runs in `sh -c`, with a simple command exec'd
// by the shell so that it keeps the pid; a list's target() is the
// shell's.
struct Target {
  pid_t pid = 0;
  int go_fd = -1;

  bool spawn(const std::string &cmd, const sigset_t &orig_mask) {
    int fds[2];
    if (pipe2(fds, O_CLOEXEC) != 0)
      return false;
    // Expanded before the fork: the child only execs.
    wordexp_t words{};
    bool direct = is_simple_command(cmd) &&
                  wordexp(cmd.c_str(), &words, WRDE_NOCMD | WRDE_UNDEF) == 0;
    if (direct && words.we_wordc == 0) {
      wordfree(&words);
      direct = false;
    }
    pid = fork();
    if (pid < 0) {
      if (direct)
        wordfree(&words);
      return false;
    }
    if (pid == 0) {
      close(fds[1]);
      sigprocmask(SIG_SETMASK, &orig_mask, nullptr);
      char go = 0;
      if (read(fds[0], &go, 1) != 1 || go != 'g')
        _exit(127); // the session never started
      if (direct) {
        execvp(words.we_wordv[0], words.we_wordv);
        std::fprintf(stderr, "staprun: cannot run %s: %s\n", words.we_wordv[0],
                     std::strerror(errno));
        _exit(errno == ENOENT ? 127 : 126);
      }
      std::string line = is_simple_command(cmd) ? "exec " + cmd : cmd;
      execl("/bin/sh", "sh", "-c", line.c_str(), static_cast<char *>(nullptr));
      std::fprintf(stderr, "staprun: cannot run /bin/sh: %s\n", std::strerror(errno));
      _exit(127);
    }
    if (direct)
      wordfree(&words);
    close(fds[0]);
    go_fd = fds[1];
    return true;
  }
  void release() {
    if (go_fd >= 0) {
      (void)!write(go_fd, "g", 1);
      close(go_fd);
      go_fd = -1;
    }
  }
  // Ends a target that outlived the session and reaps it.
  void finish() {
    if (go_fd >= 0) {
      close(go_fd); // never released: the child exits by itself
      go_fd = -1;
    }
    if (pid > 0) {
      if (waitpid(pid, nullptr, WNOHANG) == 0) {
        kill(pid, SIGTERM);
        waitpid(pid, nullptr, 0);
      }
      pid = 0;
    }
  }
};

// system(CMD) of a script: CMD runs in the background under /bin/sh with
// staprun's user and output; staprun does not wait for it. (A double fork:
// the command is reparented at once, so the session's SIGCHLD handling of
// the -c target never sees it.)
static void run_system_command(const std::string &cmd, const sigset_t &orig_mask) {
  pid_t child = fork();
  if (child < 0) {
    std::fprintf(stderr, "WARNING: system(\"%s\") could not start: %s\n", cmd.c_str(),
                 std::strerror(errno));
    return;
  }
  if (child == 0) {
    sigprocmask(SIG_SETMASK, &orig_mask, nullptr);
    if (fork() == 0) {
      execl("/bin/sh", "sh", "-c", cmd.c_str(), static_cast<char *>(nullptr));
      _exit(127);
    }
    _exit(0);
  }
  waitpid(child, nullptr, 0);
}

class Session {
public:
  // Output goes to `files` when -o was given, else to standard output.
  Session(const Options &o, int ctl, int data, OutputFiles *files)
      : opts_(o), ctl_(ctl), data_(data), files_(files), buf_(1 << 20) {}

  int run(const sigset_t &orig_mask, int sigfd);

private:
  bool command(const char *cmd);
  // Each reads until its file is empty, or at most `max_reads` times: in
  // the session's loop a module that produces as fast as staprun reads
  // must not keep it from the other file and from its signals.
  void copy_data(int max_reads = -1);
  void read_control(int max_reads = -1);
  void handle_message(const std::string &line);
  void drain();

  const Options &opts_;
  sigset_t orig_mask_{};
  int ctl_, data_;
  OutputFiles *files_;
  std::vector<char> buf_;
  std::string ctl_partial_;
  bool stop_requested_ = false, had_error_ = false;
};

bool Session::command(const char *cmd) {
  if (write(ctl_, cmd, std::strlen(cmd)) < 0) {
    std::fprintf(stderr, "staprun: control command '%s' failed: %s\n", cmd,
                 std::strerror(errno));
    return false;
  }
  return true;
}

void Session::copy_data(int max_reads) {
  for (int i = 0; i != max_reads; ++i) {
    ssize_t n = read(data_, buf_.data(), buf_.size());
    if (n < 0 && errno == EINTR)
      continue;
    // switch_file() in the script, at this point of the output
    // (runtime/transport/transport.c): the next -o file from here.
    if (n < 0 && errno == ENOMSG) {
      if (files_ && !files_->next())
        std::fprintf(stderr, "WARNING: switch_file: cannot open %s: %s\n",
                     files_->current_name().c_str(), std::strerror(errno));
      continue;
    }
    if (n <= 0)
      return;
    bool ok = files_ ? files_->write(buf_.data(), static_cast<size_t>(n))
                     : write_all(STDOUT_FILENO, buf_.data(), static_cast<size_t>(n));
    if (!ok) {
      std::fprintf(stderr, "staprun: writing output failed: %s\n", std::strerror(errno));
      stop_requested_ = true;
      return;
    }
  }
}

void Session::handle_message(const std::string &line) {
  auto rest = [&](size_t n) { return line.size() > n ? line.substr(n) : std::string(); };
  if (line == "exit") {
    stop_requested_ = true;
  } else if (line.rfind("error ", 0) == 0) {
    had_error_ = true;
    std::fprintf(stderr, "ERROR: %s\n", rest(6).c_str());
  } else if (line.rfind("warning ", 0) == 0) {
    if (!opts_.suppress_warnings)
      std::fprintf(stderr, "WARNING: %s\n", rest(8).c_str());
  } else if (line.rfind("system ", 0) == 0) {
    run_system_command(rest(7), orig_mask_);
  } else if (line.rfind("drops ", 0) == 0) {
    unsigned long long bytes = 0, records = 0;
    std::sscanf(line.c_str(), "drops %llu %llu", &bytes, &records);
    std::fprintf(stderr,
                 "WARNING: %llu bytes of output in %llu records were dropped: the "
                 "per-CPU buffer was full (try a larger -s)\n",
                 bytes, records);
  } else if (line.rfind("stats ", 0) == 0) {
    int errors = 0, skipped = 0;
    std::sscanf(line.c_str(), "stats errors %d skipped %d", &errors, &skipped);
    // Errors whose messages were lost in a flood still fail the run.
    if (errors > 0)
      had_error_ = true;
    std::fprintf(stderr, "WARNING: Number of errors: %d, skipped probes: %d\n", errors,
                 skipped);
  } else if (opts_.verbose) {
    std::fprintf(stderr, "staprun: unknown control message '%s'\n", line.c_str());
  }
}

void Session::read_control(int max_reads) {
  char tmp[4096];
  for (int i = 0; i != max_reads; ++i) {
    ssize_t n = read(ctl_, tmp, sizeof(tmp));
    if (n < 0 && errno == EINTR)
      continue;
    if (n <= 0)
      return;
    ctl_partial_.append(tmp, static_cast<size_t>(n));
    size_t nl;
    while ((nl = ctl_partial_.find('\n')) != std::string::npos) {
      std::string line = ctl_partial_.substr(0, nl);
      ctl_partial_.erase(0, nl + 1);
      handle_message(line);
    }
  }
}

// After "stop": the end probes have run; read everything that is left.
void Session::drain() {
  copy_data();
  read_control();
}

int Session::run(const sigset_t &orig_mask, int sigfd) {
  orig_mask_ = orig_mask;
  Target target;
  long pid = opts_.target_pid;
  if (!opts_.command.empty()) {
    if (!target.spawn(opts_.command, orig_mask)) {
      std::fprintf(stderr, "staprun: cannot start '%s': %s\n", opts_.command.c_str(),
                   std::strerror(errno));
      return 1;
    }
    pid = target.pid;
  }
  // The local time zone for tz_gmtoff()/tz_name(): seconds west of UTC,
  // as SystemTap 4.8's staprun passes it.
  char start[64];
  std::time_t now = std::time(nullptr);
  std::tm local{};
  tzset();
  localtime_r(&now, &local);
  std::snprintf(start, sizeof(start), "tz %ld %.15s", -static_cast<long>(local.tm_gmtoff),
                local.tm_zone && *local.tm_zone ? local.tm_zone : "UTC");
  if (!command(start)) {
    target.finish();
    return 1;
  }
  std::snprintf(start, sizeof(start), "start %ld", pid);
  if (!command(start)) {
    target.finish();
    return 1;
  }
  target.release();

  StdinForward input(module_name_of(opts_.module_path));
  // -T SECS: the session ends then, as on SIGTERM.
  using Clock = std::chrono::steady_clock;
  const Clock::time_point deadline = Clock::now() + std::chrono::seconds(opts_.timeout_s);
  while (!stop_requested_) {
    pollfd fds[4] = {{data_, POLLIN, 0}, {ctl_, POLLIN, 0}, {sigfd, POLLIN, 0},
                     {input.fd(), POLLIN, 0}};
    int wait_ms = -1;
    if (opts_.timeout_s) {
      auto left = std::chrono::duration_cast<std::chrono::milliseconds>(deadline - Clock::now());
      if (left.count() <= 0)
        break;
      wait_ms = static_cast<int>(std::min<long long>(left.count() + 1, 1 << 30));
    }
    int n = poll(fds, input.fd() < 0 ? 3 : 4, wait_ms);
    if (n < 0 && errno == EINTR)
      continue;
    if (n < 0)
      break;
    if (fds[0].revents)
      copy_data(16);
    if (fds[1].revents)
      read_control(16);
    if (input.fd() >= 0 && fds[3].revents)
      input.forward();
    if (fds[2].revents) {
      signalfd_siginfo si;
      while (read(sigfd, &si, sizeof(si)) == sizeof(si)) {
        if (si.ssi_signo == SIGCHLD) {
          if (target.pid > 0 && waitpid(target.pid, nullptr, WNOHANG) == target.pid) {
            target.pid = 0;
            stop_requested_ = true; // the -c command ended
          }
        } else {
          stop_requested_ = true; // SIGINT, SIGTERM, SIGHUP
        }
      }
    }
  }
  command("stop");
  drain();
  target.finish();
  return had_error_ ? 1 : 0;
}

} // namespace

int run_session(const Options &opts, const std::string &dir) {
  std::unique_ptr<OutputFiles> files;
  if (!opts.output_file.empty()) {
    files = std::make_unique<OutputFiles>(opts.output_file, opts.file_size_mb, opts.max_files);
    if (!files->open_first()) {
      std::fprintf(stderr, "staprun: cannot open output file '%s': %s\n",
                   files->current_name().c_str(), std::strerror(errno));
      return 1;
    }
  }
  int ctl = open((dir + "/ctl").c_str(), O_RDWR | O_NONBLOCK | O_CLOEXEC);
  int data = open((dir + "/data").c_str(), O_RDONLY | O_NONBLOCK | O_CLOEXEC);
  if (ctl < 0 || data < 0) {
    std::fprintf(stderr, "staprun: cannot open the module's files in %s: %s\n", dir.c_str(),
                 std::strerror(errno));
    return 1;
  }
  sigset_t mask, orig;
  sigemptyset(&mask);
  for (int s : {SIGINT, SIGTERM, SIGHUP, SIGCHLD})
    sigaddset(&mask, s);
  sigprocmask(SIG_BLOCK, &mask, &orig);
  int sigfd = signalfd(-1, &mask, SFD_NONBLOCK | SFD_CLOEXEC);

  Session s(opts, ctl, data, files.get());
  int rc = s.run(orig, sigfd);

  close(sigfd);
  sigprocmask(SIG_SETMASK, &orig, nullptr);
  close(ctl);
  close(data);
  return rc;
}

} // namespace staprun
