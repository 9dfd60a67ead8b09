// A kernel that refuses unsigned modules, for real: x86_64 guests booted
// with lockdown=integrity (what Secure Boot turns on) and with
// module.sig_enforce=1. staprun must say why and what to do.
#include "command.h"
#include "remote/vm.h"

#include <gtest/gtest.h>

namespace stap::testing {
namespace {

const std::string kBin = STAP_BIN_DIR;

class LoadRefused : public ::testing::Test {
protected:
  void SetUp() override {
    target_ = remote::default_vm_target("x86_64");
    if (!target_)
      GTEST_SKIP() << "no x86_64 kernel installed";
    dir_ = run_command("mktemp -d /tmp/stap-load-XXXXXX", "/").out;
    dir_.pop_back();
    CommandResult b = run_command(kBin + "/stap -p4 -r " + target_->release +
                                      " -m t_refused -e 'probe begin { exit() }'",
                                  dir_);
    ASSERT_EQ(b.status, 0) << b.err;
  }
  void TearDown() override {
    if (!dir_.empty())
      run_command("rm -rf " + shell_quote(dir_), "/");
  }
  remote::VmJobResult load_with(const std::string &kernel_args) {
    remote::VmOptions vo;
    vo.staprun_x86_64 = kBin + "/staprun";
    vo.kernel_args = kernel_args;
    // securityfs shows the lockdown mode to staprun, as on a normal system.
    auto b = remote::run_vm_batch(
        *target_,
        {{"load", "mount -t securityfs none /sys/kernel/security 2>/dev/null; staprun t_refused.ko",
          {dir_ + "/t_refused.ko"}, 60}},
        vo);
    return b.jobs.at(0);
  }
  std::optional<remote::VmTarget> target_;
  std::string dir_;
};

TEST_F(LoadRefused, LockdownSaysSecureBootAndTheWaysOut) {
  remote::VmJobResult r = load_with("lockdown=integrity");
  EXPECT_EQ(r.exit_status, 1) << r.err;
  EXPECT_NE(r.err.find("ERROR: cannot load module 't_refused.ko': Operation not permitted\n"
                       "ERROR: the kernel is locked down (integrity, as under Secure Boot) and "
                       "loads only signed modules; "),
            std::string::npos)
      << r.err;
  EXPECT_NE(r.err.find("[man error::pass5]\n"), std::string::npos) << r.err;
}

TEST_F(LoadRefused, SignatureEnforcementSaysKeyRejected) {
  remote::VmJobResult r = load_with("module.sig_enforce=1");
  EXPECT_EQ(r.exit_status, 1) << r.err;
  EXPECT_NE(r.err.find("ERROR: cannot load module 't_refused.ko': Key was rejected by service\n"
                       "ERROR: the kernel loads only modules signed by a key it trusts"),
            std::string::npos)
      << r.err;
}

} // namespace
} // namespace stap::testing
