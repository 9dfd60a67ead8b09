// stap --remote=ssh://root@127.0.0.1:PORT against two x86_64 qemu guests
// running sshd (ssh_guests.h): the module is built once for their common
// kernel release, copied with scp, and run by each guest's staprun at the
// same time; --remote-prefix marks each host's lines; Ctrl-C stops both;
// the exit status combines theirs.
#include "command.h"
#include "ssh_guests.h"

#include <algorithm>
#include <csignal>
#include <gtest/gtest.h>
#include <memory>
#include <sstream>
#include <sys/wait.h>
#include <unistd.h>

namespace stap::testing {
namespace {

const std::string kStap = STAP_BIN_DIR "/stap";

std::vector<std::string> sorted_lines(const std::string &text) {
  std::vector<std::string> lines;
  std::istringstream in(text);
  std::string line;
  while (std::getline(in, line))
    lines.push_back(line);
  std::sort(lines.begin(), lines.end());
  return lines;
}

size_t count_of(const std::string &text, const std::string &what) {
  size_t n = 0;
  for (size_t at = text.find(what); at != std::string::npos; at = text.find(what, at + 1))
    ++n;
  return n;
}

class SshRemote : public ::testing::Test {
protected:
  static void SetUpTestSuite() {
    auto target = remote::default_vm_target("x86_64");
    if (!target || access("/usr/sbin/sshd", X_OK) != 0)
      return;
    guests_ = std::make_unique<SshGuests>(*target, 2);
    if (!guests_->ready(150, why_))
      ready_ = false;
    else
      ready_ = true;
  }
  static void TearDownTestSuite() { guests_.reset(); }

  void SetUp() override {
    if (!guests_)
      GTEST_SKIP() << "no x86_64 kernel or no /usr/sbin/sshd (scripts/setup installs them)";
    ASSERT_TRUE(ready_) << why_;
  }

  // stap with both guests as --remote targets, in that order.
  static std::string stap(const std::string &args) {
    return guests_->ssh_env() + " " + kStap + " --remote=" + guests_->url(0) +
           " --remote=" + guests_->url(1) + " " + args;
  }

  static std::unique_ptr<SshGuests> guests_;
  static bool ready_;
  static std::string why_;
};

std::unique_ptr<SshGuests> SshRemote::guests_;
bool SshRemote::ready_ = false;
std::string SshRemote::why_;

TEST_F(SshRemote, BothHostsRunTheModuleBuiltOnceWithPrefixedLines) {
  CommandResult r = run_command(
      stap("--remote-prefix -v -e " +
           shell_quote("probe begin { printf(\"hello from %s\\n\", execname()); exit() }")),
      "/");
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_EQ(sorted_lines(r.out),
            (std::vector<std::string>{"0: hello from staprun", "1: hello from staprun"}))
      << r.out;
  // One kernel release: one translation and one build (or cache hit) for both.
  EXPECT_EQ(count_of(r.err, "\nPass 3: "), 1u) << r.err;
  EXPECT_EQ(count_of(r.err, "\nPass 4: "), 1u) << r.err;
  auto target = remote::default_vm_target("x86_64");
  EXPECT_EQ(count_of(r.err, ": kernel " + target->release + " (x86_64)\n"), 2u) << r.err;
}

TEST_F(SshRemote, AFailingSessionFailsTheRunWithItsHostsLines) {
  CommandResult r = run_command(
      stap("--remote-prefix -e " + shell_quote("probe begin { error(\"boom\") }")), "/");
  EXPECT_EQ(r.status, 1) << r.err;
  EXPECT_NE(r.err.find("0: ERROR: boom"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("1: ERROR: boom"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("\nPass 5: run failed.  [man error::pass5]\n"), std::string::npos)
      << r.err;
}

// As a terminal's Ctrl-C: SIGINT to stap's whole process group.
TEST_F(SshRemote, CtrlCStopsEveryHostAndTheirEndProbesRun) {
  int out[2];
  ASSERT_EQ(pipe(out), 0);
  std::string script = "probe begin { println(\"started\") } probe end { println(\"ended\") }";
  std::vector<std::string> argv = {kStap, "--remote=" + guests_->url(0),
                                   "--remote=" + guests_->url(1), "--remote-prefix", "-e",
                                   script};
  std::string env = guests_->ssh_env();
  std::string options = env.substr(env.find('=') + 2, env.size() - env.find('=') - 3);
  pid_t pid = fork();
  if (pid == 0) {
    setpgid(0, 0);
    dup2(out[1], STDOUT_FILENO);
    close(out[0]);
    close(out[1]);
    setenv("STAP_SSH_OPTIONS", options.c_str(), 1);
    std::vector<char *> args;
    for (auto &a : argv)
      args.push_back(const_cast<char *>(a.c_str()));
    args.push_back(nullptr);
    execv(args[0], args.data());
    _exit(127);
  }
  close(out[1]);
  std::string text;
  char buf[4096];
  ssize_t n;
  bool interrupted = false;
  while ((n = read(out[0], buf, sizeof buf)) > 0) {
    text.append(buf, n);
    if (!interrupted && count_of(text, ": started\n") == 2) {
      kill(-pid, SIGINT);
      interrupted = true;
    }
  }
  close(out[0]);
  int status = 0;
  waitpid(pid, &status, 0);
  EXPECT_TRUE(interrupted) << text;
  ASSERT_TRUE(WIFEXITED(status)) << text;
  EXPECT_EQ(WEXITSTATUS(status), 0) << text;
  EXPECT_EQ(sorted_lines(text), (std::vector<std::string>{"0: ended", "0: started", "1: ended",
                                                          "1: started"}))
      << text;
}

TEST_F(SshRemote, AHostThatDoesNotAnswerIsAnErrorBeforePass1) {
  CommandResult r = run_command(guests_->ssh_env() + " " + kStap +
                                    " --remote=ssh://root@127.0.0.1:1 -e 'probe begin { exit() }'",
                                "/");
  EXPECT_EQ(r.status, 1);
  EXPECT_NE(r.err.find("error: --remote=ssh://root@127.0.0.1:1: ssh could not connect"),
            std::string::npos)
      << r.err;
  EXPECT_EQ(r.err.find("Pass "), std::string::npos) << r.err;
}

} // namespace
} // namespace stap::testing
