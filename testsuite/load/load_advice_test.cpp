// staprun's advice when init_module fails: each refusal says what to do
// and which man page to read.
#include "load_errors.h"

#include <cerrno>
#include <gtest/gtest.h>

namespace staprun {
namespace {

TEST(LoadAdvice, NotRootNeedsRoot) {
  EXPECT_EQ(load_error_advice(EPERM, "", false),
            "loading a kernel module needs root: run stap or staprun as root (or with sudo)  "
            "[man error::pass5]");
}

TEST(LoadAdvice, LockdownNamesItsModeAndTheWaysOut) {
  std::string a = load_error_advice(EPERM, "none [integrity] confidentiality", true);
  EXPECT_EQ(a.rfind("the kernel is locked down (integrity, as under Secure Boot) and loads "
                    "only signed modules; ",
                    0),
            0u)
      << a;
  EXPECT_NE(a.find("--remote=qemu://  [man error::pass5]"), std::string::npos) << a;
}

TEST(LoadAdvice, EpermWithoutKnownLockdownStillSuggestsIt) {
  std::string a = load_error_advice(EPERM, "[none] integrity confidentiality", true);
  EXPECT_NE(a.find("it may be locked down (Secure Boot)"), std::string::npos) << a;
}

TEST(LoadAdvice, RejectedKeyMeansSignatureEnforcement) {
  EXPECT_NE(load_error_advice(EKEYREJECTED, "", true).find("module.sig_enforce"),
            std::string::npos);
  EXPECT_NE(load_error_advice(ENOKEY, "", true).find("signed by a key it trusts"),
            std::string::npos);
}

TEST(LoadAdvice, WrongKernelAndOthers) {
  EXPECT_NE(load_error_advice(ENOEXEC, "", true).find("built for another kernel"),
            std::string::npos);
  EXPECT_NE(load_error_advice(EINVAL, "", true).find("dmesg"), std::string::npos);
  EXPECT_EQ(load_error_advice(ENOMEM, "", true), "");
}

} // namespace
} // namespace staprun
