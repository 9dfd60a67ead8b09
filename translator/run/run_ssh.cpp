#include "run/run_ssh.h"

#include "run/run.h"
#include "util/shell.h"

#include <cerrno>
#include <chrono>
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <fcntl.h>
#include <poll.h>
#include <sys/wait.h>
#include <unistd.h>

namespace stap::run {
namespace {

std::string basename_of(const std::string &p) { return p.substr(p.find_last_of('/') + 1); }

// Signals become bytes on a pipe, read in the poll loop.
int g_signal_pipe[2] = {-1, -1};

void on_signal(int sig) {
  char c = static_cast<char>(sig);
  [[maybe_unused]] ssize_t n = write(g_signal_pipe[1], &c, 1);
}

// One of a host's two output streams, passed on line by line when the lines
// get a prefix, else as it comes.
struct Stream {
  int fd = -1;
  FILE *to = nullptr;
  std::string partial; // an unfinished line (with a prefix only)

  void pass_on(const char *buf, size_t n, const std::string &prefix) {
    if (prefix.empty()) {
      std::fwrite(buf, 1, n, to);
    } else {
      partial.append(buf, n);
      size_t nl;
      while ((nl = partial.find('\n')) != std::string::npos) {
        std::fputs(prefix.c_str(), to);
        std::fwrite(partial.data(), 1, nl + 1, to);
        partial.erase(0, nl + 1);
      }
    }
    std::fflush(to);
  }
  void finish(const std::string &prefix) {
    if (!partial.empty()) {
      std::fputs(prefix.c_str(), to);
      std::fputs(partial.c_str(), to);
      std::fflush(to);
      partial.clear();
    }
    close(fd);
    fd = -1;
  }
};

struct Running {
  const SshRun *run = nullptr;
  std::string prefix;
  pid_t pid = -1;
  Stream out, err;
  int status = -1;
  bool done = false;
};

// --remote-timeout or $STAP_REMOTE_TIMEOUT, when given: unlike a
// disposable guest, a real machine's session has no limit by default.
int explicit_timeout_s(const Options &opts) {
  if (opts.remote_timeout_s >= 0)
    return opts.remote_timeout_s;
  const char *env = std::getenv("STAP_REMOTE_TIMEOUT");
  return env && *env ? std::atoi(env) : 0;
}

} // namespace

int run_ssh(const Options &opts, const std::vector<SshRun> &runs, Diagnostics &diag) {
  if (!opts.file_switch.empty()) {
    diag.error("-S cannot be used with --remote: the output comes back as one stream");
    return 1;
  }
  Options remote_opts = opts; // -o names a file here, not on the hosts
  remote_opts.output_file.clear();
  FILE *out = stdout;
  if (!opts.output_file.empty() && !(out = std::fopen(opts.output_file.c_str(), "w"))) {
    diag.error("cannot write " + opts.output_file);
    return 1;
  }
  std::vector<Running> hosts(runs.size());
  for (size_t i = 0; i < runs.size(); ++i) {
    const SshRun &r = runs[i];
    std::string staprun = tool_path(r.host->arch() == "i386" ? "staprun32" : "staprun");
    std::string err;
    if (!r.host->copy({r.ko, staprun}, err)) {
      diag.error(err);
      return 1;
    }
    hosts[i].run = &r;
    if (opts.remote_prefix)
      hosts[i].prefix = std::to_string(i) + ": ";
  }

  if (pipe2(g_signal_pipe, O_CLOEXEC | O_NONBLOCK) != 0)
    return 1;
  struct sigaction sa {}, old[3];
  sa.sa_handler = on_signal;
  const int sigs[3] = {SIGINT, SIGTERM, SIGHUP};
  for (int k = 0; k < 3; ++k)
    sigaction(sigs[k], &sa, &old[k]);

  for (Running &h : hosts) {
    const remote::SshHost &host = *h.run->host;
    std::string cmd = "echo $$ > pid && exec ./" +
                      basename_of(tool_path(host.arch() == "i386" ? "staprun32" : "staprun"));
    RemoteInstance instance{static_cast<int>(&h - hosts.data()), host.url().url};
    for (const auto &a : staprun_args(remote_opts, basename_of(h.run->ko), instance))
      cmd += " " + shell_quote(a);
    h.pid = host.start(cmd, h.out.fd, h.err.fd);
    h.out.to = out;
    h.err.to = stderr;
    if (h.pid < 0) {
      diag.error("--remote=" + host.url().url + ": cannot run ssh");
      h.done = true;
      h.status = 1;
    }
  }

  int timeout_s = explicit_timeout_s(opts);
  auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(timeout_s);
  bool timed_out = false;
  for (;;) {
    std::vector<pollfd> fds = {{g_signal_pipe[0], POLLIN, 0}};
    std::vector<Stream *> streams;
    for (Running &h : hosts)
      for (Stream *s : {&h.out, &h.err})
        if (s->fd >= 0) {
          fds.push_back({s->fd, POLLIN, 0});
          streams.push_back(s);
        }
    if (streams.empty())
      break;
    int wait_ms = -1;
    if (timeout_s > 0 && !timed_out)
      wait_ms = static_cast<int>(std::max<long long>(
          0, std::chrono::duration_cast<std::chrono::milliseconds>(
                 deadline - std::chrono::steady_clock::now())
                 .count()));
    int n = poll(fds.data(), fds.size(), wait_ms);
    if (n < 0 && errno != EINTR)
      break;
    bool stop = false;
    if (n == 0 && timeout_s > 0 && !timed_out) {
      timed_out = stop = true;
    }
    if (fds[0].revents & POLLIN) {
      char c;
      while (read(g_signal_pipe[0], &c, 1) == 1)
        stop = true;
    }
    if (stop) // SIGINT: staprun ends the session and the end probes run
      for (Running &h : hosts)
        if (h.out.fd >= 0 || h.err.fd >= 0)
          h.run->host->signal_started(SIGINT);
    for (size_t k = 1; k < fds.size(); ++k) {
      if (!fds[k].revents)
        continue;
      Stream *s = streams[k - 1];
      Running *owner = nullptr;
      for (Running &h : hosts)
        if (&h.out == s || &h.err == s)
          owner = &h;
      char buf[8192];
      ssize_t got = read(s->fd, buf, sizeof buf);
      if (got > 0)
        s->pass_on(buf, static_cast<size_t>(got), owner->prefix);
      else if (got == 0 || errno != EINTR)
        s->finish(owner->prefix);
    }
  }
  for (Running &h : hosts) {
    if (h.done)
      continue;
    int status = 0;
    while (waitpid(h.pid, &status, 0) < 0 && errno == EINTR) {
    }
    h.status = WIFEXITED(status) ? WEXITSTATUS(status) : 1;
    if (h.status == 255)
      diag.error("--remote=" + h.run->host->url().url + ": the ssh connection failed");
  }
  for (int k = 0; k < 3; ++k)
    sigaction(sigs[k], &old[k], nullptr);
  close(g_signal_pipe[0]);
  close(g_signal_pipe[1]);
  if (out != stdout)
    std::fclose(out);
  if (timed_out) {
    diag.error("--remote: the sessions were stopped at their time limit of " +
               std::to_string(timeout_s) + " s (--remote-timeout or STAP_REMOTE_TIMEOUT)");
    return 1;
  }
  for (const Running &h : hosts)
    if (h.status != 0)
      return h.status;
  return 0;
}

} // namespace stap::run
