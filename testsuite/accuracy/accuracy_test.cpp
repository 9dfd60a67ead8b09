// The accuracy suite (issue 11): the user stack that print_ubacktrace()
// prints at a system call, compared frame by frame with gdb's backtrace of
// the same program stopped at the same system call, in the same guest.
//
// Programs: testsuite/unwind/programs, built -O2 -g -fomit-frame-pointer,
// 64- and 32-bit (readdir in nested calls, a qsort callback through libc,
// 80-deep recursion, a syscall in a signal handler, a second thread, a
// shared library of ours, a 3-deep hot loop). They run from the build tree,
// which both guests see at its host path (translator/remote/guest_view.h).
//
// Flavours: 64- and 32-bit programs in the x86_64 guest, 32-bit ones in the
// i686 guest. One boot per architecture runs every job, for each program:
//   1. gdb_frames.sh: gdb stops it at the system call (catch syscall) and
//      prints the pcs of its physical frames (the host's gdb in the x86_64
//      guest, the i386 root's in the i686 guest);
//   2. the print_ubacktrace() module at the same system call: see
//      ubacktrace_job() below (STEP 2, not plugged in yet).
// Address randomisation is off in the guest for both, so pcs compare.
#include "driver/sysroot.h"
#include "remote/guest_images.h"
#include "remote/vm.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <map>
#include <mutex>
#include <optional>
#include <sstream>
#include <string>
#include <vector>

namespace remote = stap::remote;

namespace {

const std::string kProgramDir = UW_PROGRAM_DIR;
const std::string kHere = ACCURACY_DIR;
const std::string kBin = STAP_BIN_DIR;

struct Case {
  const char *program;
  const char *syscall; // gdb's name; the first entry is compared
  const char *probe;   // the same system call's SystemTap probe point
  const char *args;    // the program's arguments (shell words)
  // gdb's function names that must appear in this order, innermost first
  // (a compiler clone "name.constprop.0" counts as name).
  std::vector<const char *> functions;
  std::vector<const char *> outermost; // what the last frame may be
};

std::ostream &operator<<(std::ostream &os, const Case &c) { return os << c.program; }

const Case kCases[] = {
    {"readdir", "getdents64", "syscall.getdents", "", {"count_entries", "list_dir", "main"},
     {"_start"}},
    {"qsort_callback", "getppid", "syscall.getppid", "", {"compare", "sort_numbers", "main"},
     {"_start"}},
    {"recursion", "umask", "syscall.umask", "", {"descend", "main"}, {"_start"}},
    {"signal_handler", "getppid", "syscall.getppid", "",
     {"in_handler", "handler", "send_signal", "main"}, {"_start"}},
    // gdb names libc's clone3 only where it has libc's symbols (the
    // 32-bit libc's .dynsym lacks it): "??" there.
    {"second_thread", "getppid", "syscall.getppid", "", {"work", "worker"},
     {"clone3", "clone", "??"}},
    {"uses_shared_lib", "umask", "syscall.umask", "",
     {"shared_inner", "shared_outer", "call_library", "main"}, {"_start"}},
    {"hot_loop", "getppid", "syscall.getppid", "1", {"inner", "middle", "outer", "main"},
     {"_start"}},
};

struct Flavour {
  std::string arch; // the guest's
  int bits;         // the program's
};

std::ostream &operator<<(std::ostream &os, const Flavour &f) {
  return os << f.arch << "/" << f.bits;
}

const Flavour kFlavours[] = {{"x86_64", 64}, {"x86_64", 32}, {"i386", 32}};

std::string program_path(const Case &c, int bits) {
  return kProgramDir + "/" + c.program + "_" + std::to_string(bits);
}

std::string job_name(const std::string &step, const Case &c, int bits) {
  return step + "_" + c.program + "_" + std::to_string(bits);
}

struct Frame {
  unsigned long long pc = 0;
  std::string function;
};

// gdb_frames.py's lines: "GDBFRAME 0xPC NAME".
std::vector<Frame> parse_gdb_frames(const std::string &text) {
  std::vector<Frame> frames;
  std::istringstream in(text);
  std::string line;
  while (std::getline(in, line)) {
    std::istringstream words(line);
    std::string tag, pc;
    Frame f;
    if (words >> tag >> pc >> f.function && tag == "GDBFRAME") {
      f.pc = std::stoull(pc, nullptr, 16);
      frames.push_back(f);
    }
  }
  return frames;
}

// print_ubacktrace()'s lines, as SystemTap prints them:
//   " 0x00007f0123456789 : sym+0x1c/0x40 [/usr/lib/x86_64-linux-gnu/libc.so.6]"
// (" 0xADDR : [module+0xOFF]" without symbols). Other lines are skipped.
std::vector<unsigned long long> parse_ubacktrace(const std::string &text) {
  std::vector<unsigned long long> pcs;
  std::istringstream in(text);
  std::string line;
  while (std::getline(in, line)) {
    if (line.rfind(" 0x", 0) != 0 || line.find(" : ") == std::string::npos)
      continue;
    pcs.push_back(std::stoull(line.substr(1), nullptr, 16));
  }
  return pcs;
}

struct MatchRate {
  size_t matched = 0; // frames at the same depth with the same pc
  size_t total = 0;   // gdb's frames, or ours if we printed more
};

MatchRate compare_frames(const std::vector<Frame> &gdb,
                         const std::vector<unsigned long long> &ours) {
  MatchRate r;
  r.total = std::max(gdb.size(), ours.size());
  for (size_t i = 0; i < gdb.size() && i < ours.size(); ++i)
    r.matched += gdb[i].pc == ours[i];
  return r;
}

// STEP 2, for the lead (print_ubacktrace): the job that prints the same
// stack from the kernel, run in the same boot right after the gdb job.
// Build the module here, on the host, for `target`, into `dir`:
//   stap -p4 -r REL -m ub_PROGRAM_BITS -d PROG --ldd -e
//     'global done; probe PROBE { if (pid() == target() && !done++) print_ubacktrace() }'
// with PROBE = c.probe (syscall.getdents covers getdents64, as in 4.8; the
// 32-bit programs on x86_64 go through the compat entry points, which
// syscall.* covers too). For an i386 target the translator reads PROG and
// its libraries through stap::session_sysroot() (the i386 root's libc, the
// host's PROG). The job:
//   echo 0 > /proc/sys/kernel/randomize_va_space; staprun -c 'PROG ARGS' ub_....ko
// with the .ko in job.files: print_ubacktrace()'s lines on stdout, compared
// by UbacktraceMatchesGdbFrameByFrame. Until it exists this returns nothing
// and that test skips. hot_loop is also the program for the timer.profile
// check (every sample's stack is inner, middle, outer, main... _start):
// `hot_loop_BITS N` spins N million rounds in inner.
std::optional<remote::VmJob> ubacktrace_job(const Case &, const Flavour &,
                                            const remote::VmTarget &, const std::string &) {
  return std::nullopt;
}

// Every job of one guest architecture, run in one boot on first use.
struct ArchRun {
  std::string error; // why nothing ran
  std::map<std::string, remote::VmJobResult> results; // by job name
};

const ArchRun &arch_run(const std::string &arch) {
  static std::map<std::string, ArchRun> runs;
  static std::mutex mu;
  std::lock_guard<std::mutex> lock(mu);
  auto it = runs.find(arch);
  if (it != runs.end())
    return it->second;
  ArchRun &run = runs[arch];
  auto target = remote::default_vm_target(arch);
  if (!target) {
    run.error = "no " + arch + " kernel with headers installed";
    return run;
  }
  char tmp[] = "/tmp/stap-accuracy-XXXXXX";
  std::string dir = mkdtemp(tmp);
  std::vector<remote::VmJob> jobs;
  try {
    // The i686 guest must see the programs where the host has them.
    std::optional<stap::Sysroot> guest;
    if (arch == "i386")
      guest = stap::Sysroot::i686_guest(remote::i386_guest_root());
    for (const Flavour &f : kFlavours) {
      if (f.arch != arch)
        continue;
      for (const Case &c : kCases) {
        std::string prog = program_path(c, f.bits);
        if (guest && guest->host_path(prog) != prog) {
          run.error = prog + " is not visible at that path in the i686 guest: build outside " +
                      "the i386 root's system directories (translator/remote/guest_view.h)";
          return run;
        }
        remote::VmJob gdb;
        gdb.name = job_name("gdb", c, f.bits);
        gdb.command = std::string("sh ./gdb_frames.sh ") + c.syscall + " " + prog + " " + c.args;
        gdb.files = {kHere + "/gdb_frames.sh", kHere + "/gdb_frames.py"};
        gdb.timeout_s = 180;
        jobs.push_back(gdb);
        if (auto ub = ubacktrace_job(c, f, *target, dir)) {
          ub->name = job_name("ubacktrace", c, f.bits);
          jobs.push_back(*ub);
        }
      }
    }
    remote::VmOptions opts;
    opts.staprun_x86_64 = kBin + "/staprun";
    opts.staprun_i386 = kBin + "/staprun32";
    for (auto &r : remote::run_vm_batch(*target, jobs, opts).jobs)
      run.results[r.name] = r;
  } catch (const remote::VmError &e) {
    run.error = e.what();
  }
  std::error_code ec;
  std::filesystem::remove_all(dir, ec);
  return run;
}

const remote::VmJobResult *find_result(const ArchRun &run, const std::string &name) {
  auto it = run.results.find(name);
  return it == run.results.end() ? nullptr : &it->second;
}

bool names(const std::string &got, const char *want) {
  std::string w = want;
  return got == w || got.rfind(w + ".", 0) == 0;
}

class Accuracy : public ::testing::TestWithParam<std::tuple<Case, Flavour>> {};

// The reference side: gdb stops the program at the system call in the
// guest and sees the whole stack, from the system call to _start.
TEST_P(Accuracy, GdbSeesTheWholeStackAtTheSyscall) {
  const auto &[c, f] = GetParam();
  const ArchRun &run = arch_run(f.arch);
  const remote::VmJobResult *r = find_result(run, job_name("gdb", c, f.bits));
  ASSERT_TRUE(r) << "not run: " << run.error;
  ASSERT_TRUE(r->ok()) << r->note << "\nstdout:\n" << r->out << "stderr:\n" << r->err
                       << "kernel log:\n" << r->kernel_log;
  EXPECT_NE(r->out.find("(call to syscall " + std::string(c.syscall) + ")"), std::string::npos)
      << "gdb did not stop at " << c.syscall << ":\n" << r->out << r->err;
  auto frames = parse_gdb_frames(r->out);
  ASSERT_GE(frames.size(), 3u) << r->out << r->err;
  size_t at = 0;
  for (const char *fn : c.functions) {
    while (at < frames.size() && !names(frames[at].function, fn))
      ++at;
    EXPECT_LT(at, frames.size()) << fn << " missing or out of order in:\n" << r->out;
  }
  bool outermost_ok = false;
  for (const char *fn : c.outermost)
    outermost_ok |= names(frames.back().function, fn);
  EXPECT_TRUE(outermost_ok) << "the stack does not end at " << c.outermost[0] << ":\n" << r->out;
  std::printf("[ gdb      ] %s_%d in the %s guest: %zu physical frames\n", c.program, f.bits,
              f.arch.c_str(), frames.size());
}

// The suite proper: every physical frame gdb sees, print_ubacktrace()
// prints, at the same depth with the same pc.
TEST_P(Accuracy, UbacktraceMatchesGdbFrameByFrame) {
  const auto &[c, f] = GetParam();
  const ArchRun &run = arch_run(f.arch);
  const remote::VmJobResult *ub = find_result(run, job_name("ubacktrace", c, f.bits));
  if (!ub && run.error.empty())
    GTEST_SKIP() << "print_ubacktrace() is not plugged in yet (ubacktrace_job)";
  ASSERT_TRUE(ub) << "not run: " << run.error;
  const remote::VmJobResult *g = find_result(run, job_name("gdb", c, f.bits));
  ASSERT_TRUE(g && g->ok()) << "no gdb stack to compare with";
  ASSERT_TRUE(ub->ok()) << ub->note << "\nstdout:\n" << ub->out << "stderr:\n" << ub->err
                        << "kernel log:\n" << ub->kernel_log;
  auto gdb = parse_gdb_frames(g->out);
  auto ours = parse_ubacktrace(ub->out);
  MatchRate m = compare_frames(gdb, ours);
  std::printf("[ accuracy ] %s_%d in the %s guest: %zu of %zu frames match (%.1f%%)\n",
              c.program, f.bits, f.arch.c_str(), m.matched, m.total,
              m.total ? 100.0 * m.matched / m.total : 0.0);
  RecordProperty("frames_matched", std::to_string(m.matched) + "/" + std::to_string(m.total));
  EXPECT_EQ(m.matched, m.total) << "gdb:\n" << g->out << "print_ubacktrace():\n" << ub->out;
  EXPECT_FALSE(gdb.empty());
}

INSTANTIATE_TEST_SUITE_P(
    Guest, Accuracy, ::testing::Combine(::testing::ValuesIn(kCases), ::testing::ValuesIn(kFlavours)),
    [](const auto &param_info) {
      const Flavour &f = std::get<1>(param_info.param);
      return std::string(std::get<0>(param_info.param).program) + "_" + std::to_string(f.bits) +
             "_" + f.arch;
    });

// The comparison itself, on SystemTap's output format (host only).
TEST(AccuracyParsing, UbacktraceLinesAndMatchRate) {
  auto ours = parse_ubacktrace(
      "some header\n"
      " 0x00007ffff7e8a3ab : __getdents64+0xb/0x60 [/usr/lib/x86_64-linux-gnu/libc.so.6]\n"
      " 0x0000555555555189 : count_entries+0x19/0x30 [/tmp/x/readdir_64]\n"
      " 0x0000555555555200 : [/tmp/x/readdir_64+0x1200]\n");
  ASSERT_EQ(ours.size(), 3u);
  EXPECT_EQ(ours[0], 0x7ffff7e8a3abULL);
  EXPECT_EQ(ours[2], 0x555555555200ULL);
  auto gdb = parse_gdb_frames("Catchpoint 1 (call to syscall getdents64)\n"
                              "GDBFRAME 0x7ffff7e8a3ab __getdents64\n"
                              "GDBFRAME 0x555555555189 count_entries\n"
                              "GDBFRAME 0x555555555210 main\n"
                              "GDBFRAME 0x555555555300 _start\n"
                              "GDBEND\n");
  ASSERT_EQ(gdb.size(), 4u);
  EXPECT_EQ(gdb[3].function, "_start");
  MatchRate m = compare_frames(gdb, ours);
  EXPECT_EQ(m.matched, 2u); // the third differs, the fourth is missing
  EXPECT_EQ(m.total, 4u);
}

} // namespace
