// The VM runner, end to end: real qemu guests of each installed
// architecture run batches of jobs.
#include "guest_fixture.h"

#include <filesystem>
#include <fstream>
#include <unistd.h>

namespace fs = std::filesystem;

namespace stap::remote::test {
namespace {

class Guest : public ::testing::TestWithParam<std::string> {
protected:
  void SetUp() override {
    auto t = target_for(GetParam());
    if (!t)
      GTEST_SKIP() << "no " << GetParam() << " kernel with headers installed";
    target = *t;
  }
  VmTarget target;
};

TEST_P(Guest, RunsABatchOfJobsInOneBootEachReportingOnItsOwn) {
  // A stand-in staprun: the runner must put it first in the jobs' PATH.
  fs::path fake = fs::temp_directory_path() / ("stap-vm-test-fake-staprun." + std::to_string(::getpid()));
  std::ofstream(fake) << "#!/bin/sh\necho \"fake staprun $*\"\n";
  fs::permissions(fake, fs::perms::owner_all | fs::perms::group_read | fs::perms::others_read);
  VmOptions options;
  options.staprun_x86_64 = options.staprun_i386 = fake.string();

  std::vector<VmJob> jobs = {
      {"status", "echo hello; exit 3", {}, 30},
      {"streams", "echo to-out; echo to-err >&2", {}, 30},
      {"too slow", "echo started; sleep 600; echo never", {}, 2},
      {"machine", "uname -m", {}, 30},
      {"staprun", "staprun -x 1 mod.ko", {}, 30},
  };
  VmBatchResult batch = run_vm_batch(target, jobs, options);
  ASSERT_EQ(batch.jobs.size(), jobs.size());
  EXPECT_EQ(batch.boots.size(), 1u) << "every job should run in the same boot";

  const auto &status = batch.jobs[0];
  EXPECT_TRUE(status.ran);
  EXPECT_EQ(status.out, "hello\n");
  EXPECT_EQ(status.err, "");
  EXPECT_EQ(status.exit_status, 3);
  EXPECT_FALSE(status.timed_out);
  EXPECT_FALSE(status.kernel_problem);

  const auto &streams = batch.jobs[1];
  EXPECT_EQ(streams.out, "to-out\n");
  EXPECT_EQ(streams.err, "to-err\n");
  EXPECT_TRUE(streams.ok());

  const auto &slow = batch.jobs[2];
  EXPECT_TRUE(slow.timed_out);
  EXPECT_FALSE(slow.guest_died);
  EXPECT_EQ(slow.out, "started\n");
  EXPECT_NE(slow.exit_status, 0);
  EXPECT_GE(slow.guest_wall_s, 1.5);
  EXPECT_LT(slow.guest_wall_s, 30.0);

  const auto &machine = batch.jobs[3];
  EXPECT_TRUE(machine.ok());
  EXPECT_EQ(machine.out, uname_machine(GetParam()) + "\n");

  EXPECT_EQ(batch.jobs[4].out, "fake staprun -x 1 mod.ko\n");

  for (const auto &r : batch.jobs)
    EXPECT_EQ(r.boot, 0) << r.name;
  EXPECT_EQ(batch.boots[0].end, "poweroff");
  EXPECT_EQ(batch.boots[0].jobs_started, 5);
  EXPECT_GT(batch.boots[0].host_wall_s, 0);
}

TEST_P(Guest, JobFilesAreInTheJobDirectoryAndProgramsAreNative) {
  fs::path data = fs::temp_directory_path() / "stap-vm-test-data.txt";
  std::ofstream(data) << "payload\n";
  // The ELF class byte of the guest's own ls: 1 = 32-bit, 2 = 64-bit.
  std::vector<VmJob> jobs = {
      {"listing", "ls; cat stap-vm-test-data.txt; od -An -tx1 -j4 -N1 \"$(command -v ls)\"",
       {data.string()}, 30},
  };
  VmBatchResult batch = run_vm_batch(target, jobs);
  const auto &r = batch.jobs.at(0);
  ASSERT_TRUE(r.ok()) << r.err << r.note;
  EXPECT_NE(r.out.find("cmd\n"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("\nstap-vm-test-data.txt\n"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("\npayload\n"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find(GetParam() == "i386" ? " 01\n" : " 02\n"), std::string::npos) << r.out;
}

// Host paths work unchanged in the guest (docs/vm.md, "The guest's
// files"): a file the host wrote under /tmp is there at its path, /tmp and
// /var/tmp are writable (the writes stay in the guest), and /bin/ls is
// still the guest's own (32-bit on i686).
TEST_P(Guest, HostPathsWorkUnchangedAndTemporaryDirectoriesAreWritable) {
  char templ[] = "/tmp/stap-vm-test-host-XXXXXX";
  std::string dir = mkdtemp(templ);
  std::ofstream(dir + "/from-host.txt") << "host data\n";
  std::string cwd = fs::current_path().string(); // the build tree: under /work here
  std::vector<VmJob> jobs = {
      {"host paths",
       "cat " + dir + "/from-host.txt && echo guest > " + dir + "/from-guest.txt && cat " + dir +
           "/from-guest.txt && echo v > /var/tmp/stap-vm-test && cat /var/tmp/stap-vm-test && " +
           "test -d " + cwd + " && echo cwd-visible && od -An -tx1 -j4 -N1 /bin/ls",
       {}, 30},
  };
  VmBatchResult batch = run_vm_batch(target, jobs);
  const auto &r = batch.jobs.at(0);
  EXPECT_TRUE(r.ok()) << r.err << r.note;
  EXPECT_EQ(r.out, std::string("host data\nguest\nv\ncwd-visible\n") +
                       (GetParam() == "i386" ? " 01\n" : " 02\n"));
  EXPECT_FALSE(fs::exists(dir + "/from-guest.txt")) << "the guest wrote into the host's /tmp";
  fs::remove_all(dir);
}

TEST_P(Guest, AKernelWarningFailsOnlyTheJobThatCausedIt) {
  std::string ko = trouble_module_for(target);
  ASSERT_FALSE(ko.empty());
  std::vector<VmJob> jobs = {
      {"before", "echo before", {}, 30},
      {"warn", "insmod ./trouble.ko warn=1 && echo loaded", {ko}, 60},
      {"after", "echo after", {}, 30},
  };
  VmBatchResult batch = run_vm_batch(target, jobs);
  ASSERT_EQ(batch.jobs.size(), 3u);
  EXPECT_TRUE(batch.jobs[0].ok());
  EXPECT_FALSE(batch.jobs[0].kernel_problem);

  const auto &warn = batch.jobs[1];
  EXPECT_EQ(warn.out, "loaded\n") << warn.err;
  EXPECT_EQ(warn.exit_status, 0);
  EXPECT_TRUE(warn.kernel_problem) << warn.kernel_log;
  EXPECT_NE(warn.kernel_log.find("trouble_init"), std::string::npos) << warn.kernel_log;
  EXPECT_FALSE(warn.ok());

  EXPECT_TRUE(batch.jobs[2].ok()) << batch.jobs[2].kernel_log;
  EXPECT_FALSE(batch.jobs[2].kernel_problem);
  EXPECT_EQ(batch.boots.size(), 1u) << "a warning does not need a fresh boot";
}

TEST_P(Guest, AnOopsFailsItsJobAndTheJobsAfterItGetAFreshKernel) {
  std::string ko = trouble_module_for(target);
  ASSERT_FALSE(ko.empty());
  std::vector<VmJob> jobs = {
      {"oops", "insmod ./trouble.ko bug=1", {ko}, 60},
      {"after", "cat /proc/sys/kernel/tainted", {}, 30},
  };
  VmBatchResult batch = run_vm_batch(target, jobs);
  ASSERT_EQ(batch.jobs.size(), 2u);
  const auto &oops = batch.jobs[0];
  EXPECT_TRUE(oops.ran);
  EXPECT_FALSE(oops.guest_died) << "an oops in insmod kills insmod, not the guest";
  EXPECT_NE(oops.exit_status, 0);
  EXPECT_TRUE(oops.kernel_problem) << oops.kernel_log;
  EXPECT_NE(oops.kernel_log.find("trouble_init"), std::string::npos) << oops.kernel_log;

  const auto &after = batch.jobs[1];
  EXPECT_TRUE(after.ok()) << after.note << after.kernel_log;
  EXPECT_EQ(after.boot, 1);
  EXPECT_EQ(after.out, "0\n") << "the fresh kernel is not tainted";
  ASSERT_EQ(batch.boots.size(), 2u);
  EXPECT_EQ(batch.boots[0].end, "poweroff");
}

TEST_P(Guest, AJobThatCrashesTheGuestFailsAndTheNextRunsInAFreshBoot) {
  std::vector<VmJob> jobs = {
      {"before", "echo before", {}, 30},
      {"crash", "echo c > /proc/sysrq-trigger; sleep 30", {}, 60},
      {"after", "echo after", {}, 30},
  };
  VmBatchResult batch = run_vm_batch(target, jobs);
  ASSERT_EQ(batch.jobs.size(), 3u);
  EXPECT_TRUE(batch.jobs[0].ok());

  const auto &crash = batch.jobs[1];
  EXPECT_TRUE(crash.ran);
  EXPECT_TRUE(crash.guest_died);
  EXPECT_FALSE(crash.timed_out);
  EXPECT_TRUE(crash.kernel_problem);
  EXPECT_NE(crash.kernel_log.find("sysrq triggered crash"), std::string::npos)
      << crash.kernel_log;

  const auto &after = batch.jobs[2];
  EXPECT_TRUE(after.ok()) << after.note;
  EXPECT_EQ(after.out, "after\n");
  EXPECT_EQ(after.boot, 1);
  ASSERT_EQ(batch.boots.size(), 2u);
  EXPECT_EQ(batch.boots[0].end, "died");
  EXPECT_EQ(batch.boots[1].end, "poweroff");
}

TEST_P(Guest, AGuestHungPastTheTimeoutIsKilledAndTheNextJobStillRuns) {
  std::string ko = trouble_module_for(target);
  ASSERT_FALSE(ko.empty());
  // insmod sleeps uninterruptibly in the module's init, and it is the job's
  // process itself (exec): the guest's watchdog cannot end it, so the job
  // never finishes and the host gives up after timeout + margin.
  VmOptions options;
  options.hang_margin_s = 5;
  std::vector<VmJob> jobs = {
      {"hang", "exec insmod ./trouble.ko hang_s=3600", {ko}, 2},
      {"after", "echo after", {}, 30},
  };
  VmBatchResult batch = run_vm_batch(target, jobs, options);
  ASSERT_EQ(batch.jobs.size(), 2u);
  const auto &hang = batch.jobs[0];
  EXPECT_TRUE(hang.ran);
  EXPECT_TRUE(hang.timed_out);
  EXPECT_TRUE(hang.guest_died);
  EXPECT_FALSE(hang.ok());
  EXPECT_EQ(batch.jobs[1].out, "after\n");
  EXPECT_EQ(batch.jobs[1].boot, 1);
  ASSERT_EQ(batch.boots.size(), 2u);
  EXPECT_EQ(batch.boots[0].end, "hung");
}

INSTANTIATE_TEST_SUITE_P(Arch, Guest, ::testing::Values("x86_64", "i386"),
                         [](const auto &arch) { return arch.param; });

} // namespace
} // namespace stap::remote::test
