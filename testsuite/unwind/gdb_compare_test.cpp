// stap-ustack against gdb: for each of our programs, 64- and 32-bit, stop at
// the first entry of a system call and compare the physical frames. gdb's
// inline and tail-call frames are left out (they share a physical frame or
// have none). Both tools disable address randomisation, so pcs are equal.
#include "run_capture.h"

#include <gtest/gtest.h>

#include <cstring>
#include <sstream>
#include <unistd.h>
#include <vector>

namespace {

struct Case {
  const char *program;
  const char *syscall;
  // Must appear, symbolised with their ELF (mangled) names, in order.
  std::vector<const char *> functions;
};

std::ostream &operator<<(std::ostream &os, const Case &c) {
  return os << c.program;
}

const std::string kDir = UW_PROGRAM_DIR;

std::vector<unsigned long long> parse_pcs(const std::string &text,
                                          const std::string &prefix) {
  std::vector<unsigned long long> pcs;
  std::istringstream in(text);
  std::string line;
  while (std::getline(in, line))
    if (line.rfind(prefix, 0) == 0)
      pcs.push_back(std::stoull(line.substr(prefix.size()), nullptr, 16));
  return pcs;
}

// Per-process scratch files: CTest runs test cases in parallel processes.
std::string scratch(const std::string &name) {
  return ::testing::TempDir() + "uw_" + std::to_string(getpid()) + "_" + name;
}

std::string gdb_backtrace(const std::string &exe, const std::string &syscall) {
  const char *py =
      "python\n"
      "f = gdb.newest_frame()\n"
      "while f is not None:\n"
      "    if f.type() not in (gdb.INLINE_FRAME, gdb.TAILCALL_FRAME):\n"
      "        print('GDBFRAME %x' % f.pc())\n"
      "    f = f.older()\n"
      "end\n";
  std::string script = scratch("gdb_bt.gdb");
  FILE *f = fopen(script.c_str(), "w");
  fputs(py, f);
  fclose(f);
  std::string bt = run_capture("gdb -nx -batch -ex 'set pagination off' "
                     "-ex 'set backtrace past-main on' "
                     "-ex 'set backtrace past-entry on' "
                     "-ex 'handle all nostop noprint pass' "
                     "-ex 'catch syscall " + syscall + "' -ex run "
                     "-x " + script + " -ex kill --args " + exe +
                     " 2>/dev/null </dev/null");
  std::remove(script.c_str());
  return bt;
}

std::string ustack(const std::string &exe, const std::string &syscall,
                   const std::string &extra = "") {
  std::string out = scratch("ustack.txt");
  int status = 0;
  run_capture(std::string(UW_STAP_USTACK) + " --no-randomize " + extra +
                  " -o " + out + " --syscall " + syscall + " -- " + exe +
                  " >/dev/null 2>&1",
              &status);
  EXPECT_EQ(status, 0) << exe << " under stap-ustack";
  std::string text = run_capture("cat " + out);
  std::remove(out.c_str());
  return text;
}

class AgainstGdb : public ::testing::TestWithParam<std::tuple<Case, int>> {};

TEST_P(AgainstGdb, EveryPhysicalFrameMatches) {
  const auto &[c, bits] = GetParam();
  std::string exe = kDir + "/" + c.program + "_" + std::to_string(bits);
  std::string ours = ustack(exe, c.syscall);
  std::string theirs = gdb_backtrace(exe, c.syscall);
  auto our_pcs = parse_pcs(ours, " 0x");
  auto gdb_pcs = parse_pcs(theirs, "GDBFRAME ");
  ASSERT_GE(gdb_pcs.size(), 3u) << "gdb gave no usable backtrace:\n" << theirs;
  EXPECT_EQ(our_pcs, gdb_pcs) << "stap-ustack:\n" << ours << "gdb:\n" << theirs;
  // Symbolisation: our functions appear by name, innermost first.
  size_t at = 0;
  for (const char *fn : c.functions) {
    // "name+0x..." or a compiler clone such as "name.constprop.0+0x..."
    size_t found = ours.find(std::string(" : ") + fn, at);
    while (found != std::string::npos &&
           std::string("+.").find(ours[found + 3 + std::strlen(fn)]) ==
               std::string::npos)
      found = ours.find(std::string(" : ") + fn, found + 1);
    EXPECT_NE(found, std::string::npos) << fn << " missing in:\n" << ours;
    if (found != std::string::npos)
      at = found;
  }
}

// With only the registers a syscall entry saves, every printed frame must
// still be right: the scrubbed stack is a prefix of the full one.
TEST_P(AgainstGdb, ScrubbedStackIsAPrefix) {
  const auto &[c, bits] = GetParam();
  std::string exe = kDir + "/" + c.program + "_" + std::to_string(bits);
  auto full = parse_pcs(ustack(exe, c.syscall), " 0x");
  auto part = parse_pcs(ustack(exe, c.syscall, "--scrub=syscall"), " 0x");
  ASSERT_FALSE(part.empty());
  ASSERT_LE(part.size(), full.size());
  EXPECT_TRUE(std::equal(part.begin(), part.end(), full.begin()));
  RecordProperty("exact_frames", std::to_string(part.size()) + "/" +
                                     std::to_string(full.size()));
  std::printf("[ scrubbed ] %s_%d: %zu of %zu frames\n", c.program, bits,
              part.size(), full.size());
}

const Case kCases[] = {
    {"readdir", "getdents64", {"readdir", "count_entries", "list_dir", "main"}},
    {"qsort_callback", "getppid", {"compare", "qsort_r", "sort_numbers", "main"}},
    {"recursion", "umask", {"umask", "descend", "main"}},
    {"signal_handler", "getppid", {"in_handler", "handler", "send_signal", "main"}},
    {"second_thread", "getppid", {"getppid", "work", "worker"}},
    {"uses_shared_lib", "umask", {"shared_inner", "shared_outer", "call_library", "main"}},
    {"exceptions", "getppid", {"_ZL12on_terminatev", "_Unwind_RaiseException", "__cxa_throw",
      "_ZL7escapesv", "main"}},
    {"debug_frame_only", "getdents64", {"readdir", "count_entries", "list_dir", "main"}},
};

INSTANTIATE_TEST_SUITE_P(
    Programs, AgainstGdb,
    ::testing::Combine(::testing::ValuesIn(kCases), ::testing::Values(64, 32)),
    [](const auto &param_info) {
      return std::string(std::get<0>(param_info.param).program) + "_" +
             std::to_string(std::get<1>(param_info.param));
    });

} // namespace
