// Which runtime parts a module is built with (runtime/stp_features.h,
// translator/build/runtime_features.cpp): read off the C `stap -p3`
// generates for each script, only what the script uses.
#include "build/runtime_features.h"
#include "command_output.h"

#include <gtest/gtest.h>

#include <algorithm>

namespace {

const std::string kBin = STAP_BIN_DIR;

std::vector<std::string> parts_of(const std::string &script) {
  int status = 0;
  std::string c = command_output(kBin + "/stap -p3 -e '" + script + "'", status);
  EXPECT_EQ(status, 0) << c;
  return stap::build::runtime_features(c);
}

bool has(const std::vector<std::string> &v, const std::string &s) {
  return std::find(v.begin(), v.end(), s) != v.end();
}

TEST(RuntimeFeatures, HelloNeedsNoPart) {
  auto p = parts_of("probe begin { printf(\"hello %d\\n\", 42); exit() }");
  EXPECT_EQ(p, std::vector<std::string>{"STP_FEATURES"});
}

// (`next`: a probe that does nothing at all is elided, as in 4.8.)
TEST(RuntimeFeatures, EachProbeKindItsOwn) {
  EXPECT_TRUE(has(parts_of("probe kprobe.function(\"vfs_read\") { next }"), "STP_FEATURE_KPROBE"));
  EXPECT_TRUE(has(parts_of("probe timer.s(1) { next }"), "STP_FEATURE_TIMER"));
  EXPECT_TRUE(has(parts_of("probe timer.profile { next }"), "STP_FEATURE_TIMER") ||
              has(parts_of("probe timer.profile { next }"), "STP_FEATURE_PERF"));
  auto k = parts_of("probe kprobe.function(\"vfs_read\") { next }");
  EXPECT_FALSE(has(k, "STP_FEATURE_TIMER"));
  EXPECT_FALSE(has(k, "STP_FEATURE_USER"));
  EXPECT_FALSE(has(k, "STP_FEATURE_MAPS"));
}

TEST(RuntimeFeatures, DataPartsOnlyWhenUsed) {
  auto a = parts_of("global a probe begin { a[1] = 2 }");
  EXPECT_TRUE(has(a, "STP_FEATURE_MAPS"));
  auto s = parts_of("global s probe begin { s <<< 1 }");
  EXPECT_TRUE(has(s, "STP_FEATURE_STATS"));
  EXPECT_FALSE(has(s, "STP_FEATURE_MAPS"));
  auto r = parts_of("probe begin { if (execname() =~ \"^s\") exit() }");
  EXPECT_TRUE(has(r, "STP_FEATURE_REGEX"));
  EXPECT_FALSE(has(r, "STP_FEATURE_MAPS"));
}

TEST(RuntimeFeatures, BacktracesBringTheUserPart) {
  EXPECT_TRUE(has(parts_of("probe begin { print_ubacktrace() }"), "STP_FEATURE_USER"));
  EXPECT_TRUE(has(parts_of("probe begin { print_backtrace() }"), "STP_FEATURE_USER"));
  EXPECT_FALSE(has(parts_of("probe begin { println(pid()) }"), "STP_FEATURE_USER"));
}

} // namespace
