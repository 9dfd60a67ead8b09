// The syscall tapset against SystemTap 4.8: every probe point 4.8 lists
// for these kernels (`stap -L 'nd_syscall.*'` of 4.8 itself, in
// syscalls-4.8/ARCH.txt) exists here with at least 4.8's variables, except
// the documented differences below; and the tapset is what
// scripts/gen-syscalls makes of the installed kernel headers.
#include "remote/vm.h"

#include <gtest/gtest.h>

#include "command_output.h"

#include <array>
#include <cstdio>
#include <fstream>
#include <map>
#include <set>
#include <sstream>
#include <string>

namespace {

const std::string kBin = STAP_BIN_DIR;
const std::string kTestsuite = STAP_TESTSUITE_DIR;

// "syscall.x a b c" lines: point -> its variables.
std::map<std::string, std::set<std::string>> read_listing(std::istream &in) {
  std::map<std::string, std::set<std::string>> out;
  std::string line;
  while (std::getline(in, line)) {
    if (line.empty() || line[0] == '#')
      continue;
    std::istringstream words(line);
    std::string point, var;
    words >> point;
    auto &vars = out[point];
    while (words >> var)
      vars.insert(var.substr(0, var.find(':')));
  }
  return out;
}

// 4.8 probe points that are not here, and why.
bool known_absent(const std::string &arch, const std::string &point) {
  // 4.8 has separate points for 32-bit programs on x86_64
  // (syscall.compat_*, syscall.pwrite32, rt_sigaction32...) on kernels
  // that had such entry points; here syscall.X covers all ABIs.
  for (const char *prefix : {"syscall.compat_"})
    if (point.rfind(prefix, 0) == 0)
      return true;
  static const std::set<std::string> absent = {
      "syscall.pwrite32", "syscall.rt_sigaction32", "syscall.sigaction32",
      "syscall.settimeofday32", "syscall.ustat32",
      // not system calls of these kernels (4.8 lists them from tracepoints)
      "syscall.bdflush", "syscall.sysctl", "syscall.ni_syscall"};
  // i386 has no kexec_file_load system call: 4.8 lists it from the
  // tracepoints there
  static const std::set<std::string> absent_i386 = {"syscall.kexec_file_load"};
  return absent.count(point) != 0 || (arch == "i386" && absent_i386.count(point) != 0);
}

class SyscallTapset : public ::testing::TestWithParam<std::string> {};

TEST_P(SyscallTapset, HasSystemTap48sPointsAndVariables) {
  const std::string arch = GetParam();
  auto target = stap::remote::default_vm_target(arch);
  if (!target)
    GTEST_SKIP() << "no " << arch << " kernel with headers installed";
  std::ifstream expected_file(kTestsuite + "/unit/syscalls-4.8/" + arch + ".txt");
  ASSERT_TRUE(expected_file) << "no 4.8 listing for " << arch;
  auto expected = read_listing(expected_file);
  int status;
  std::istringstream ours_text(
      command_output(kBin + "/stap -r " + target->release + " -L 'syscall.*'", status));
  ASSERT_EQ(status, 0) << ours_text.str();
  auto ours = read_listing(ours_text);
  int compared = 0;
  for (const auto &[point, vars] : expected) {
    if (known_absent(arch, point))
      continue;
    auto it = ours.find(point);
    if (it == ours.end()) {
      ADD_FAILURE() << point << " is missing";
      continue;
    }
    for (const std::string &v : vars)
      EXPECT_TRUE(it->second.count(v)) << point << " lacks " << v;
    ++compared;
  }
  EXPECT_GT(compared, 300);
}

// 4.8's own example: getdents and getdents64 are one probe point.
TEST_P(SyscallTapset, GetdentsListsAs48Does) {
  const std::string arch = GetParam();
  auto target = stap::remote::default_vm_target(arch);
  if (!target)
    GTEST_SKIP() << "no " << arch << " kernel with headers installed";
  int status;
  std::string out = command_output(kBin + "/stap -r " + target->release + " -L syscall.getdents", status);
  EXPECT_EQ(status, 0);
  // On x86_64 the kernel's BTF adds the entry point's own parameter and
  // types $return, as 4.8 does with debuginfo installed.
  const bool btf = arch == "x86_64";
  EXPECT_EQ(out, std::string("syscall.getdents name:string fd:long dirp_uaddr:long count:long "
                             "argstr:string") +
                     (btf ? " $regs:struct pt_regs const*" : "") + "\n");
  // $return: the kprobe's return value (4.8 lists none without debuginfo)
  out = command_output(kBin + "/stap -r " + target->release + " -L syscall.getdents.return", status);
  EXPECT_EQ(out, std::string("syscall.getdents.return name:string retval:long retstr:string ") +
                     (btf ? "$return:long int $regs:struct pt_regs const*" : "$return:long") +
                     "\n");
}

INSTANTIATE_TEST_SUITE_P(Arch, SyscallTapset, ::testing::Values("x86_64", "i386"));

// The checked-in tapset is the generator's output for the installed headers.
TEST(SyscallTapsetGenerator, TapsetIsUpToDate) {
  int status;
  std::string out = command_output("python3 " + kTestsuite + "/../scripts/gen-syscalls --check", status);
  if (out.find("no /usr/src/linux-headers") != std::string::npos)
    GTEST_SKIP() << out;
  EXPECT_EQ(status, 0) << out;
}

} // namespace
