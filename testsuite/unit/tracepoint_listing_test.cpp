// kernel.trace listings against SystemTap 4.8: `stap -L
// 'kernel.trace("sched:*")'` lists the same points with the same variables
// and C types as 4.8 itself did for 6.1.0-56-amd64 (tracepoints-4.8/
// sched.txt), on x86_64 and on i686, whose sched tracepoints have the same
// prototypes; the types come from the tracepoint query objects
// (translator/tracequery/), not from BTF, so i686 has them too.
#include "remote/vm.h"

#include <gtest/gtest.h>

#include "command_output.h"

#include <array>
#include <cstdio>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

namespace {

const std::string kBin = STAP_BIN_DIR;
const std::string kTestsuite = STAP_TESTSUITE_DIR;

std::vector<std::string> lines(std::istream &in) {
  std::vector<std::string> out;
  std::string line;
  while (std::getline(in, line))
    if (!line.empty() && line[0] != '#')
      out.push_back(line);
  return out;
}

class TracepointListing : public ::testing::TestWithParam<std::string> {};

TEST_P(TracepointListing, SchedIsAs48ListsIt) {
  auto target = stap::remote::default_vm_target(GetParam());
  if (!target)
    GTEST_SKIP() << "no " << GetParam() << " kernel with headers installed";
  std::ifstream expected_file(kTestsuite + "/unit/tracepoints-4.8/sched.txt");
  ASSERT_TRUE(expected_file);
  int status;
  std::istringstream ours(
      command_output(kBin + "/stap -r " + target->release + " -L 'kernel.trace(\"sched:*\")'", status));
  ASSERT_EQ(status, 0) << ours.str();
  EXPECT_EQ(lines(ours), lines(expected_file));
}

// Without its system the name finds the same point; an unknown one is an
// error that suggests the nearest.
TEST_P(TracepointListing, NameWithoutSystemAndSuggestion) {
  auto target = stap::remote::default_vm_target(GetParam());
  if (!target)
    GTEST_SKIP() << "no " << GetParam() << " kernel with headers installed";
  int status;
  std::string out =
      command_output(kBin + "/stap -r " + target->release + " -l 'kernel.trace(\"sched_switch\")'", status);
  EXPECT_EQ(status, 0);
  EXPECT_EQ(out, "kernel.trace(\"sched:sched_switch\")\n");
  out = command_output(kBin + "/stap -r " + target->release +
                " -p2 -e 'probe kernel.trace(\"sched:sched_wakeupp\") {}'",
            status);
  EXPECT_NE(status, 0);
  EXPECT_NE(out.find("did you mean 'sched:sched_wakeup'?"), std::string::npos) << out;
}

INSTANTIATE_TEST_SUITE_P(Arch, TracepointListing, ::testing::Values("x86_64", "i386"));

} // namespace
