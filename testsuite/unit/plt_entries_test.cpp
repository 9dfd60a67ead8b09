// probes/plt_entries.h against binutils: for each program, the PLT entries
// we find are the <NAME@plt> symbols objdump -d synthesizes (which it
// finds by decoding the entries' jumps), same names, same addresses. The
// programs: up_syscalls (testsuite/scripts/run/uprobes) built 64- and
// 32-bit, each plain (lazy .plt) and with IBT's second PLT (.plt.sec:
// -fcf-protection=full -z ibtplt), and the host's /usr/bin/ls.
#include "probes/plt_entries.h"

#include <gtest/gtest.h>

#include "command_output.h"

#include <cstdlib>
#include <map>
#include <regex>
#include <sstream>
#include <string>
#include <unistd.h>

namespace {

const std::string kTestsuite = STAP_TESTSUITE_DIR;

// name -> address of objdump's <NAME@plt> symbols in .plt and .plt.sec
// (not .plt.got's stubs for GOT-bound calls, which SystemTap 4.8 does not
// list either: its -p2 of up_prog has no __cxa_finalize).
std::map<std::string, uint64_t> objdump_plt(const std::string &program) {
  int status;
  std::istringstream out(command_output("objdump -d " + program, status));
  std::map<std::string, uint64_t> m;
  std::regex symbol("^([0-9a-f]+) <([^@>]+)@plt>:$");
  std::regex section("^Disassembly of section (.*):$");
  std::string line, in;
  std::smatch s;
  while (std::getline(out, line)) {
    if (std::regex_match(line, s, section))
      in = s[1];
    else if ((in == ".plt" || in == ".plt.sec") && std::regex_match(line, s, symbol))
      m[s[2]] = std::strtoull(s[1].str().c_str(), nullptr, 16);
  }
  return m;
}

std::map<std::string, uint64_t> ours(const std::string &program) {
  std::string err;
  auto elf = stap::symtab::ElfImage::open_file(program, err);
  EXPECT_TRUE(elf) << err;
  std::map<std::string, uint64_t> m;
  if (elf)
    for (const auto &e : stap::probes::plt_entries(*elf))
      m[e.name] = e.addr;
  return m;
}

struct Build {
  const char *name, *flags;
};

class PltEntries : public ::testing::TestWithParam<Build> {};

TEST_P(PltEntries, AreTheEntriesObjdumpNames) {
  char dir[] = "/tmp/plt_entries_test.XXXXXX";
  ASSERT_TRUE(mkdtemp(dir));
  const std::string prog = std::string(dir) + "/" + GetParam().name;
  int status;
  std::string out = command_output("cc -O2 " + std::string(GetParam().flags) + " -o " + prog +
                                       " " + kTestsuite + "/scripts/run/uprobes/up_syscalls.c",
                                   status);
  if (status != 0) {
    command_output("rm -rf " + std::string(dir), status);
    GTEST_SKIP() << "cannot build " << GetParam().flags << ": " << out;
  }
  auto want = objdump_plt(prog);
  EXPECT_TRUE(want.count("close")) << "objdump names no close@plt";
  EXPECT_EQ(ours(prog), want);
  command_output("rm -rf " + std::string(dir), status);
}

INSTANTIATE_TEST_SUITE_P(
    Builds, PltEntries,
    ::testing::Values(Build{"lazy64", "-m64"}, Build{"lazy32", "-m32"},
                      Build{"ibt64", "-m64 -fcf-protection=full -Wl,-z,ibtplt"},
                      Build{"ibt32", "-m32 -fcf-protection=full -Wl,-z,ibtplt"}),
    [](const ::testing::TestParamInfo<Build> &p) { return std::string(p.param.name); });

TEST(PltEntriesOfLs, AreTheEntriesObjdumpNames) {
  auto want = objdump_plt("/usr/bin/ls");
  if (want.empty())
    GTEST_SKIP() << "/usr/bin/ls has no PLT entries objdump names";
  EXPECT_EQ(ours("/usr/bin/ls"), want);
}

} // namespace
