// The kernel callbacks generated per kprobe handler
// (translator/probes/kprobe.cpp, runtime/probes/kprobe_entry.h): a few
// handlers get their own, which call them directly; a module with many
// (syscall.*) keeps the runtime's shared ones, so that it does not grow by
// a context entry per handler. Read off the C `stap -p3` generates.
#include "command_output.h"

#include <gtest/gtest.h>

#include <regex>

namespace {

const std::string kBin = STAP_BIN_DIR;

std::string c_of(const std::string &script) {
  int status = 0;
  std::string c = command_output(kBin + "/stap -p3 -e '" + script + "'", status);
  EXPECT_EQ(status, 0) << c;
  return c;
}

size_t count(const std::string &text, const std::string &pattern) {
  std::regex re(pattern);
  return std::distance(std::sregex_iterator(text.begin(), text.end(), re), std::sregex_iterator());
}

TEST(KprobeCallbacks, EachHandlerCallsDirectly) {
  std::string c = c_of("probe kprobe.function(\"vfs_read\") { next } "
                       "probe kprobe.function(\"vfs_write\").return { next }");
  EXPECT_EQ(count(c, R"(static int probe_\d+_kprobe\(struct kprobe \*kp, struct pt_regs \*regs\))"), 1u) << c;
  EXPECT_EQ(count(c, R"(return stp_kprobe_pre_run\(kp, regs, probe_\d+\);)"), 1u) << c;
  EXPECT_EQ(count(c, R"(static int probe_\d+_kretprobe\(struct kretprobe_instance \*ri)"), 1u) << c;
  EXPECT_EQ(count(c, R"(return stp_kretprobe_run\(ri, regs, probe_\d+\);)"), 1u) << c;
  EXPECT_EQ(count(c, R"(\.pre_handler = probe_\d+_kprobe)"), 1u) << c;
  EXPECT_EQ(count(c, R"(\.ret_handler = probe_\d+_kretprobe)"), 1u) << c;
}

TEST(KprobeCallbacks, OneCallbackPerHandlerNotPerPoint) {
  std::string c = c_of("probe kprobe.function(\"vfs_read\"), kprobe.function(\"vfs_write\") { next }");
  EXPECT_EQ(count(c, R"(static int probe_\d+_kprobe\()"), 1u) << c;
  EXPECT_EQ(count(c, R"(\.pre_handler = probe_\d+_kprobe)"), 2u) << c;
}

TEST(KprobeCallbacks, ManyHandlersShareTheRuntimes) {
  std::string c = c_of("probe syscall.* { next }");
  EXPECT_GT(count(c, R"(\.symbol = )"), 32u) << "expected the syscall tapset's many handlers";
  EXPECT_EQ(count(c, R"(_kprobe\(struct kprobe)"), 0u);
  EXPECT_EQ(count(c, R"(\.pre_handler = )"), 0u);
}

} // namespace
