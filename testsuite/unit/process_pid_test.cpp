// process(PID) and -x PID name the program a running process runs, read
// from /proc/PID/exe where the translator runs, as SystemTap 4.8 does
// (checked with its -p2: process(PID).plt("nanosleep") of a sleep is
// process("/usr/bin/sleep").statement(0x2160), its PLT entry). The
// process here is a sleep of our own; the PLT entry's address is the one
// objdump names nanosleep@plt.
#include "remote/vm.h"

#include <gtest/gtest.h>

#include "command_output.h"

#include <csignal>
#include <regex>
#include <string>
#include <sys/wait.h>
#include <unistd.h>

namespace {

const std::string kBin = STAP_BIN_DIR;

class SleepingProcess {
public:
  SleepingProcess() {
    pid_ = fork();
    if (pid_ == 0) {
      execl("/bin/sleep", "sleep", "60", (char *)nullptr);
      _exit(127);
    }
    usleep(100 * 1000); // exec'd: /proc/PID/exe is sleep
  }
  ~SleepingProcess() {
    kill(pid_, SIGKILL);
    waitpid(pid_, nullptr, 0);
  }
  pid_t pid() const { return pid_; }

private:
  pid_t pid_;
};

// "0x2160" for nanosleep@plt in /usr/bin/sleep, from objdump.
std::string objdump_plt_address(const std::string &program, const std::string &name) {
  int status;
  std::string out = command_output("objdump -d " + program, status);
  std::smatch m;
  if (!std::regex_search(out, m, std::regex("\n0*([0-9a-f]+) <" + name + "@plt>:")))
    return "";
  return "0x" + m[1].str();
}

class ProcessPid : public ::testing::Test {
protected:
  void SetUp() override {
    target_ = stap::remote::default_vm_target("x86_64");
    if (!target_)
      GTEST_SKIP() << "no x86_64 kernel with headers installed";
    plt_ = objdump_plt_address("/usr/bin/sleep", "nanosleep");
    if (plt_.empty())
      GTEST_SKIP() << "/usr/bin/sleep has no nanosleep@plt";
  }
  std::string stap(const std::string &args, int &status) {
    return command_output(kBin + "/stap -r " + target_->release + " -p2 " + args, status);
  }
  std::optional<stap::remote::VmTarget> target_;
  std::string plt_;
};

TEST_F(ProcessPid, NamesTheProgramTheProcessRuns) {
  SleepingProcess p;
  int status;
  std::string out = stap("-e 'probe process(" + std::to_string(p.pid()) +
                             ").plt(\"nanosleep\") { println($$name) }'",
                         status);
  ASSERT_EQ(status, 0) << out;
  EXPECT_NE(out.find("process(\"/usr/bin/sleep\").statement(" + plt_ + ")"), std::string::npos)
      << out;
}

TEST_F(ProcessPid, XPidFillsInAnUnspecifiedProcess) {
  SleepingProcess p;
  int status;
  std::string out = stap("-x " + std::to_string(p.pid()) +
                             " -e 'probe process.plt(\"nanosleep\") { println($$name) }'",
                         status);
  ASSERT_EQ(status, 0) << out;
  EXPECT_NE(out.find("process(\"/usr/bin/sleep\").statement(" + plt_ + ")"), std::string::npos)
      << out;
}

TEST_F(ProcessPid, CCommandFillsInAnUnspecifiedProcess) {
  int status;
  std::string out =
      stap("-c '/bin/sleep 1' -e 'probe process.plt(\"nanosleep\") { println($$name) }'", status);
  ASSERT_EQ(status, 0) << out;
  EXPECT_NE(out.find("process(\"/usr/bin/sleep\").statement(" + plt_ + ")"), std::string::npos)
      << out;
}

} // namespace
