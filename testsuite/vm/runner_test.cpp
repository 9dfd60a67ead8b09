// The VM runner's host-side parts that need no guest: kernel log reading,
// batch files, qemu:// URLs, the job share's layout.
#include "remote/batch_file.h"
#include "remote/job_share.h"
#include "remote/kernel_log.h"
#include "remote/vm.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <sstream>

namespace fs = std::filesystem;

namespace stap::remote {
namespace {

// --- kernel logs ---------------------------------------------------------

const char module_load_log[] =
    "[    3.127023] trouble: loading out-of-tree module taints kernel.\n"
    "[    3.127927] trouble: module verification failed: signature and/or required key "
    "missing - tainting kernel\n"
    "[    3.135472] trouble: loaded (warn=0 hang_s=0)\n";

TEST(KernelLog, ModuleLoadTaintMessagesAreNotProblems) {
  EXPECT_FALSE(has_kernel_problem(module_load_log));
  EXPECT_FALSE(has_kernel_problem(""));
}

TEST(KernelLog, WarningsOopsesPanicsAndStacksAreProblems) {
  for (const char *line : {
           "[    3.129826] WARNING: CPU: 0 PID: 124 at trouble.c:15 trouble_init+0x11/0x1000",
           "[    5.1] BUG: kernel NULL pointer dereference, address: 0000000000000000",
           "[    5.2] kernel BUG at mm/slub.c:123!",
           "[    5.3] Oops: 0002 [#1] PREEMPT SMP NOPTI",
           "[    5.4] general protection fault, probably for non-canonical address",
           "[    5.5] Kernel panic - not syncing: sysrq triggered crash",
           "[    5.6] Call Trace:",
           "[    5.7] watchdog: BUG: soft lockup - CPU#0 stuck for 22s! [insmod:120]",
           "[    5.8] INFO: task insmod:120 blocked for more than 120 seconds.",
           // lockdep, KASAN, KFENCE, SLUB debugging, list and stack checks
           "[    6.1] WARNING: possible circular locking dependency detected",
           "[    6.2] BUG: KASAN: slab-out-of-bounds in stp_map_set+0x12/0x80 [t_x]",
           "[    6.3] BUG: KFENCE: use-after-free read in stp_map_get+0x1/0x2",
           "[    6.4] BUG kmalloc-64 (Tainted: G           OE     ): Redzone overwritten",
           "[    6.5] BUG skbuff_head_cache (Not tainted): Poison overwritten",
           "[    6.6] list_add corruption. prev->next should be next (ffff8880)",
           "[    6.7] Kernel panic - not syncing: stack-protector: Kernel stack is corrupted in: f",
           "[    6.8] BUG: scheduling while atomic: staprun/123/0x00000002",
       }) {
    EXPECT_TRUE(has_kernel_problem(std::string(module_load_log) + line + "\n")) << line;
  }
}

TEST(KernelLog, ADeadGuestsLogStartsAtItsJobsMarker) {
  std::string console = "STAPVM: job 001 start\r\n"
                        "STAPVM: job 001 end status 0\r\n"
                        "STAPVM: job 002 start\r\n"
                        "[    4.0] Kernel panic - not syncing: sysrq triggered crash\r\n";
  EXPECT_EQ(console_since_job(console, "002"),
            "STAPVM: job 002 start\n[    4.0] Kernel panic - not syncing: sysrq triggered crash\n");
}

TEST(KernelLog, WithoutAMarkerTheConsoleTailStandsIn) {
  std::string console;
  for (int i = 1; i <= 100; ++i)
    console += "line " + std::to_string(i) + "\r\n";
  std::string tail = console_since_job(console, "007");
  EXPECT_EQ(tail.substr(0, 8), "line 41\n");
  EXPECT_EQ(tail.substr(tail.size() - 9), "line 100\n");
  EXPECT_EQ(console_tail("a\nb\nc\n", 2), "b\nc\n");
  EXPECT_EQ(console_tail("a\nb\n", 5), "a\nb\n");
}

// --- batch files ---------------------------------------------------------

std::optional<std::vector<VmJob>> parse(const std::string &text, std::string &errors,
                                        const std::string &name = "/some/dir/jobs.batch") {
  SourceFile file(name, text);
  std::ostringstream out;
  Diagnostics diag(out);
  auto jobs = parse_vm_batch(file, diag);
  errors = out.str();
  return jobs;
}

TEST(BatchFile, DescribesJobsWithTheirFilesTimeoutsAndCommands) {
  std::string errors;
  auto jobs = parse("# two jobs\n"
                    "timeout 20\n"
                    "job hello\n"
                    "  run echo hi; exit 3   \n"
                    "\n"
                    "job load\n"
                    "  file probe.ko\n"
                    "  file /abs/data.txt\n"
                    "  timeout 5\n"
                    "  run insmod ./probe.ko # not a comment: part of the command\n",
                    errors);
  ASSERT_TRUE(jobs) << errors;
  ASSERT_EQ(jobs->size(), 2u);
  EXPECT_EQ((*jobs)[0].name, "hello");
  EXPECT_EQ((*jobs)[0].command, "echo hi; exit 3");
  EXPECT_EQ((*jobs)[0].timeout_s, 20);
  EXPECT_TRUE((*jobs)[0].files.empty());
  EXPECT_EQ((*jobs)[1].name, "load");
  EXPECT_EQ((*jobs)[1].command, "insmod ./probe.ko # not a comment: part of the command");
  EXPECT_EQ((*jobs)[1].timeout_s, 5);
  EXPECT_EQ((*jobs)[1].files, (std::vector<std::string>{"/some/dir/probe.ko", "/abs/data.txt"}));
}

TEST(BatchFile, ErrorsPointAtTheirLine) {
  std::string errors;
  EXPECT_FALSE(parse("job a\n  run true\n  tiemout 3\n", errors));
  EXPECT_EQ(errors, "/some/dir/jobs.batch:3:3: error: unknown batch keyword 'tiemout' "
                    "(job, timeout, file, run)\n"
                    "      tiemout 3\n"
                    "      ^\n");
  EXPECT_FALSE(parse("job a\n  timeout soon\n  run true\n", errors));
  EXPECT_NE(errors.find("jobs.batch:2:11: error: timeout wants a whole number"), std::string::npos)
      << errors;
  EXPECT_FALSE(parse("job a\njob b\n  run true\n", errors));
  EXPECT_NE(errors.find("jobs.batch:1:1: error: job 'a' has no 'run' line"), std::string::npos)
      << errors;
  EXPECT_FALSE(parse("run true\n", errors));
  EXPECT_NE(errors.find("'run' before the first 'job' line"), std::string::npos) << errors;
  EXPECT_FALSE(parse("job a\n  run true\n  run false\n", errors));
  EXPECT_NE(errors.find("jobs.batch:3:3: error: second 'run'"), std::string::npos) << errors;
  EXPECT_FALSE(parse("# nothing\n", errors));
  EXPECT_NE(errors.find("no jobs in the batch file"), std::string::npos) << errors;
}

// --- qemu:// URLs --------------------------------------------------------

TEST(QemuUrl, AnEmptyReleaseMeansTheNewestX86_64Kernel) {
  std::string error;
  auto def = default_vm_target("x86_64");
  auto t = resolve_qemu_url("qemu://", error);
  if (!def) {
    EXPECT_FALSE(t);
    EXPECT_NE(error.find("installed"), std::string::npos) << error;
    GTEST_SKIP() << "no x86_64 kernel installed";
  }
  ASSERT_TRUE(t) << error;
  EXPECT_EQ(t->release, def->release);
  EXPECT_EQ(t->arch, "x86_64");
  for (const auto &other : installed_vm_targets()) {
    if (other.arch == "x86_64") {
      EXPECT_LE(strverscmp(other.release.c_str(), t->release.c_str()), 0) << other.release;
    }
  }
}

TEST(QemuUrl, EveryInstalledReleaseResolvesToItsOwnKernel) {
  for (const auto &installed : installed_vm_targets()) {
    std::string error;
    auto t = resolve_qemu_url("qemu://" + installed.release, error);
    ASSERT_TRUE(t) << error;
    EXPECT_EQ(t->release, installed.release);
    EXPECT_TRUE(fs::exists(t->vmlinuz)) << t->vmlinuz;
    EXPECT_TRUE(fs::is_directory(t->modules_dir + "/kernel")) << t->modules_dir;
    EXPECT_EQ(t->build_dir, "/lib/modules/" + installed.release + "/build");
    EXPECT_EQ(t->build_dir, vm_kernel_build_dir(installed.release));
    EXPECT_TRUE(t->arch == "x86_64" || t->arch == "i386") << t->arch;
  }
}

TEST(QemuUrl, UnknownReleasesAndSchemesAreErrorsNamingWhatIsInstalled) {
  std::string error;
  EXPECT_FALSE(resolve_qemu_url("qemu://1.2.3-not-a-kernel", error));
  EXPECT_NE(error.find("'1.2.3-not-a-kernel' is not installed"), std::string::npos) << error;
  for (const auto &t : installed_vm_targets())
    EXPECT_NE(error.find(t.release), std::string::npos) << error;
  EXPECT_FALSE(resolve_qemu_url("ssh://host", error));
  EXPECT_NE(error.find("expected qemu://[RELEASE]"), std::string::npos) << error;
}

// --- the job share -------------------------------------------------------

class Share : public ::testing::Test {
protected:
  void SetUp() override {
    dir = fs::temp_directory_path() /
          ("stap-vm-share-test-" + std::to_string(::getpid()) + "-" +
           ::testing::UnitTest::GetInstance()->current_test_info()->name());
    fs::remove_all(dir);
    fs::create_directories(dir / "in");
    std::ofstream(dir / "in" / "probe.ko") << "module bytes";
  }
  void TearDown() override { fs::remove_all(dir); }
  fs::path dir;
};

std::string slurp(const fs::path &p) {
  std::ifstream in(p);
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

TEST_F(Share, EachJobGetsANumberedDirectoryWithItsCommandTimeoutAndFiles) {
  std::ofstream(dir / "in" / "staprun") << "#!/bin/sh\n";
  std::vector<VmJob> jobs = {{"a", "echo a", {(dir / "in" / "probe.ko").string()}, 7},
                             {"b", "echo b", {}, 0}};
  JobShare share((dir / "share").string(), jobs, (dir / "in" / "staprun").string());
  EXPECT_EQ(share.job_name(0), "001");
  EXPECT_EQ(share.job_name(1), "002");
  EXPECT_EQ(slurp(dir / "share/001/cmd"), "echo a\n");
  EXPECT_EQ(slurp(dir / "share/001/timeout"), "7\n");
  EXPECT_EQ(slurp(dir / "share/001/probe.ko"), "module bytes");
  EXPECT_EQ(slurp(dir / "share/002/timeout"), "0\n");
  EXPECT_EQ(slurp(dir / "share/bin/staprun"), "#!/bin/sh\n");
  EXPECT_FALSE(share.started(0));
  EXPECT_FALSE(share.done(0));
}

TEST_F(Share, ResultsAreReadFromWhatTheGuestWrote) {
  JobShare share((dir / "share").string(), {{"a", "true", {}, 5}}, "");
  fs::path j = dir / "share/001";
  std::ofstream(j / "started") << "2.50\n";
  std::ofstream(j / "stdout") << "out\n";
  std::ofstream(j / "stderr") << "err\n";
  std::ofstream(j / "status") << "3\n";
  std::ofstream(j / "wall") << "0.75\n";
  std::ofstream(j / "dmesg") << "[ 1.0] WARNING: CPU: 0 PID: 1 at x.c:1\n";
  std::ofstream(j / "done");
  VmJobResult r;
  share.read_result(0, r);
  EXPECT_TRUE(r.ran);
  EXPECT_EQ(share.started_uptime(0), 2.5);
  EXPECT_EQ(r.out, "out\n");
  EXPECT_EQ(r.err, "err\n");
  EXPECT_EQ(r.exit_status, 3);
  EXPECT_EQ(r.guest_wall_s, 0.75);
  EXPECT_TRUE(r.kernel_problem);
  EXPECT_FALSE(r.timed_out);
}

TEST_F(Share, ManyJobsKeepTheirOrderInSortedNames) {
  std::vector<VmJob> jobs(1200, VmJob{"x", "true", {}, 1});
  JobShare share((dir / "share").string(), jobs, "");
  EXPECT_EQ(share.job_name(0), "0001");
  EXPECT_EQ(share.job_name(1199), "1200");
}

TEST_F(Share, FilesMayNotReplaceTheRunnersOwnFiles) {
  std::ofstream(dir / "in" / "cmd") << "x";
  EXPECT_THROW(JobShare((dir / "share1").string(), {{"a", "true", {(dir / "in/cmd").string()}, 1}},
                        ""),
               VmError);
  std::string ko = (dir / "in/probe.ko").string();
  EXPECT_THROW(JobShare((dir / "share2").string(), {{"a", "true", {ko, ko}, 1}}, ""), VmError);
  EXPECT_THROW(JobShare((dir / "share3").string(), {{"a", "true", {"/no/such/file"}, 1}}, ""),
               VmError);
}

} // namespace
} // namespace stap::remote
