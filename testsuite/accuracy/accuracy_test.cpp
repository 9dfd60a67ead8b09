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
//   2. the print_ubacktrace() module at the same system call, built on the
//      host with -d PROG --ldd (ubacktrace_job() below).
// Address randomisation is off in the guest for both, so pcs compare.
// hot_loop also runs under timer.profile (profile_job()): every sample in
// its inner loop must give the whole stack. hostile_stack wrecks its own
// stack first: the walk must stay bounded and print no unproven frame.
#include "driver/sysroot.h"
#include "remote/guest_images.h"
#include "remote/vm.h"
#include "command.h"
#include "util/shell.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cstring>
#include <cstdio>
#include <filesystem>
#include <map>
#include <mutex>
#include <optional>
#include <set>
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
  // A wrecked stack (hostile_stack.c): gdb's later frames are guesses, so
  // ours must be a bounded prefix of gdb's instead of equal to it.
  bool hostile = false;
  // User-probe contexts instead of a system call: a uprobe on `ufunc`'s
  // first instruction the first time `gdb_cond` (gdb's) / `stp_cond` (the
  // script's) holds there, or, with `uret`, a uretprobe on its first
  // return (gdb: `finish` from that stop).
  const char *ufunc = nullptr;
  bool uret = false;
  const char *gdb_cond = "1";
  const char *stp_cond = "1";
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
    // hostile_stack.c MODE: the stack above smash() is overwritten.
    {"hostile_stack", "getppid", "syscall.getppid", "zero", {"smash"}, {}, true},
    {"hostile_stack", "getppid", "syscall.getppid", "self", {"smash"}, {}, true},
    {"hostile_stack", "getppid", "syscall.getppid", "kernel", {"smash"}, {}, true},
    {"hostile_stack", "getppid", "syscall.getppid", "unmapped", {"smash"}, {}, true},
    {"hostile_stack", "getppid", "syscall.getppid", "random", {"smash"}, {}, true},
    {"hostile_stack", "getppid", "syscall.getppid", "badsp", {}, {}, true},
    // The 80-deep recursion at its innermost call's entry, and at the
    // first return a uretprobe sees: the kernel keeps at most 64 pending
    // returns per task (MAX_URETPROBE_DEPTH), so calls nested deeper get
    // none, and the first is that of the 64th call, descend(17). There the
    // 63 callers' return addresses on the stack are the kernel's
    // trampoline, each replaced by the real one.
    {"recursion", "", "", "", {"descend", "main"}, {"_start"}, false, "descend", false,
     "depth == 0", "int_arg(1) == 0"},
    {"recursion", "", "", "", {"descend", "main"}, {"_start"}, false, "descend", true,
     "depth == 17"},
    // qsort's callback: libc's frames between it and main.
    {"qsort_callback", "", "", "", {"compare", "sort_numbers", "main"}, {"_start"}, false,
     "compare"},
    {"qsort_callback", "", "", "", {"sort_numbers", "main"}, {"_start"}, false, "compare", true},
};

// The depth the accuracy modules allow (-DMAXBACKTRACE): more than the
// 80-deep recursion case needs.
constexpr int kMaxBacktrace = 128;

// A case's name in job and test names: the program, and the mode of the
// hostile program.
std::string case_name(const Case &c) {
  if (c.ufunc)
    return std::string(c.program) + (c.uret ? "_uretprobe_" : "_uprobe_") + c.ufunc;
  return c.hostile ? std::string(c.program) + "_" + c.args : c.program;
}

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
  return step + "_" + case_name(c) + "_" + std::to_string(bits);
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
//   " 0x7f0123456789 : sym+0x1c/0x40 [/usr/lib/x86_64-linux-gnu/libc.so.6]"
// or, where no symbol covers the pc (gdb's "??"),
//   " 0x7f0123456789 [/usr/lib/x86_64-linux-gnu/libc.so.6+0x2724a]".
// Other lines (the program's own output) are skipped.
std::vector<unsigned long long> parse_ubacktrace(const std::string &text) {
  std::vector<unsigned long long> pcs;
  std::istringstream in(text);
  std::string line;
  while (std::getline(in, line)) {
    if (line.rfind(" 0x", 0) != 0 ||
        (line.find(" : ") == std::string::npos && line.find(" [") == std::string::npos))
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

// Builds, on the host, the module of one job for `target` into `dir`:
//   stap -p4 -r REL -m NAME -DMAXBACKTRACE=N -d PROG --ldd -e SCRIPT
// For an i386 target the translator reads PROG and its libraries through
// the session's sysroot (the i386 root's libc, the host's PROG), as a user
// would run it. Throws with stap's diagnostics when the build fails.
std::string build_module(const std::string &name, const std::string &prog,
                         const std::string &script, const remote::VmTarget &target,
                         const std::string &dir) {
  std::string cmd = stap::shell_quote(kBin + "/stap") + " -p4 -r " +
                    stap::shell_quote(target.release) + " -m " + name +
                    " -DMAXBACKTRACE=" + std::to_string(kMaxBacktrace) + " -d " +
                    stap::shell_quote(prog) + " --ldd -e " + stap::shell_quote(script);
  auto r = stap::testing::run_command(cmd, dir);
  if (r.status != 0)
    throw remote::VmError("stap failed for " + name + ": " + cmd + "\n" + r.err);
  return dir + "/" + name + ".ko";
}

// The guest command that runs PROG ARGS under a module, with the address
// space laid out as in the gdb job (randomisation off).
std::string staprun_command(const std::string &ko, const std::string &prog,
                            const std::string &args) {
  std::string command = prog;
  if (!args.empty())
    command += " " + args;
  return "echo 0 > /proc/sys/kernel/randomize_va_space; staprun -c " +
         stap::shell_quote(command) + " " + std::filesystem::path(ko).filename().string();
}

// The job that prints the same stack from the kernel, in the same boot
// right after the gdb job: print_ubacktrace() at the first entry of the
// same system call in the program (syscall.getdents covers getdents64, as
// in 4.8; 32-bit programs on x86_64 go through the compat entry points).
remote::VmJob ubacktrace_job(const Case &c, const Flavour &f, const remote::VmTarget &target,
                             const std::string &dir) {
  std::string prog = program_path(c, f.bits);
  std::string name = job_name("ub", c, f.bits);
  std::string script = std::string("global done\nprobe ") + c.probe +
                       " { if (pid() == target() && !done++) print_ubacktrace() }";
  if (c.ufunc) // the uprobe's own process filter: the -c command's tree
    script = "global done\nprobe process(\"" + prog + "\").function(\"" + c.ufunc + "\")" +
             (c.uret ? ".return" : "") + " { if ((" + c.stp_cond +
             ") && !done++) print_ubacktrace() }";
  remote::VmJob job;
  std::string ko = build_module(name, prog, script, target, dir);
  job.command = staprun_command(ko, prog, c.args);
  job.files = {ko};
  job.timeout_s = 180;
  return job;
}

// timer.profile in hot_loop's inner loop: every sample taken there prints
// its whole stack as pcs (ubacktrace()), to compare with gdb's.
constexpr const char *kProfileRounds = "60"; // million rounds in inner()

remote::VmJob profile_job(const Flavour &f, const remote::VmTarget &target,
                          const std::string &dir) {
  std::string prog = kProgramDir + "/hot_loop_" + std::to_string(f.bits);
  std::string name = "profile_hot_loop_" + std::to_string(f.bits);
  std::string script = "probe timer.profile { if (pid() == target() && user_mode() && "
                       "usymname(uaddr()) == \"inner\") printf(\"SAMPLE %s\\n\", ubacktrace()) }";
  remote::VmJob job;
  std::string ko = build_module(name, prog, script, target, dir);
  job.name = name;
  job.command = staprun_command(ko, prog, kProfileRounds);
  job.files = {ko};
  job.timeout_s = 300;
  return job;
}

// The last part of the name of every test --gtest_filter selected: jobs
// run only for those (a filtered run boots for what it checks).
std::set<std::string> selected_tests() {
  std::set<std::string> names;
  const ::testing::UnitTest &u = *::testing::UnitTest::GetInstance();
  for (int i = 0; i < u.total_test_suite_count(); ++i) {
    const ::testing::TestSuite *suite = u.GetTestSuite(i);
    for (int j = 0; j < suite->total_test_count(); ++j) {
      const ::testing::TestInfo *t = suite->GetTestInfo(j);
      std::string name = t->name();
      if (t->should_run())
        names.insert(name.substr(name.rfind('/') + 1));
    }
  }
  return names;
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
    const std::set<std::string> selected = selected_tests();
    if (arch == "i386")
      guest = stap::Sysroot::i686_guest(remote::i386_guest_root());
    for (const Flavour &f : kFlavours) {
      if (f.arch != arch)
        continue;
      for (const Case &c : kCases) {
        if (!selected.count(case_name(c) + "_" + std::to_string(f.bits) + "_" + f.arch))
          continue;
        std::string prog = program_path(c, f.bits);
        if (guest && guest->host_path(prog) != prog) {
          run.error = prog + " is not visible at that path in the i686 guest: build outside " +
                      "the i386 root's system directories (translator/remote/guest_view.h)";
          return run;
        }
        remote::VmJob gdb;
        gdb.name = job_name("gdb", c, f.bits);
        gdb.command = std::string("sh ./gdb_frames.sh ") + c.syscall + " " + prog + " " + c.args;
        if (c.ufunc)
          gdb.command = std::string("sh ./gdb_uframes.sh ") + (c.uret ? "return " : "entry ") +
                        c.ufunc + " " + stap::shell_quote(c.gdb_cond) + " " + prog + " " + c.args;
        gdb.files = {kHere + "/gdb_frames.sh", kHere + "/gdb_uframes.sh", kHere + "/gdb_frames.py"};
        gdb.timeout_s = 180;
        jobs.push_back(gdb);
        remote::VmJob ub = ubacktrace_job(c, f, *target, dir);
        ub.name = job_name("ubacktrace", c, f.bits);
        jobs.push_back(ub);
      }
      if (selected.count("hot_loop_" + std::to_string(f.bits) + "_" + f.arch))
        jobs.push_back(profile_job(f, *target, dir));
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

// The reference side: gdb stops the program at the system call (or the
// user probe's place) in the guest and sees the whole stack, from there to
// _start.
TEST_P(Accuracy, GdbSeesTheWholeStackAtTheSyscall) {
  const auto &[c, f] = GetParam();
  const ArchRun &run = arch_run(f.arch);
  const remote::VmJobResult *r = find_result(run, job_name("gdb", c, f.bits));
  ASSERT_TRUE(r) << "not run: " << run.error;
  ASSERT_TRUE(r->ok()) << r->note << "\nstdout:\n" << r->out << "stderr:\n" << r->err
                       << "kernel log:\n" << r->kernel_log;
  if (!c.ufunc) {
    EXPECT_NE(r->out.find("(call to syscall " + std::string(c.syscall) + ")"), std::string::npos)
        << "gdb did not stop at " << c.syscall << ":\n" << r->out << r->err;
  }
  auto frames = parse_gdb_frames(r->out);
  ASSERT_GE(frames.size(), c.hostile ? 1u : 3u) << r->out << r->err;
  size_t at = 0;
  for (const char *fn : c.functions) {
    while (at < frames.size() && !names(frames[at].function, fn))
      ++at;
    EXPECT_LT(at, frames.size()) << fn << " missing or out of order in:\n" << r->out;
  }
  if (!c.outermost.empty()) {
    bool outermost_ok = false;
    for (const char *fn : c.outermost)
      outermost_ok |= names(frames.back().function, fn);
    EXPECT_TRUE(outermost_ok) << "the stack does not end at " << c.outermost[0] << ":\n"
                              << r->out;
  }
  std::printf("[ gdb      ] %s_%d in the %s guest: %zu physical frames\n", case_name(c).c_str(),
              f.bits, f.arch.c_str(), frames.size());
}

// The suite proper: every physical frame gdb sees, print_ubacktrace()
// prints, at the same depth with the same pc. On a wrecked stack gdb goes
// on guessing where CFI ends; ours must stop: a prefix of gdb's frames,
// bounded by MAXBACKTRACE, and the guest's kernel log clean (ok()).
TEST_P(Accuracy, UbacktraceMatchesGdbFrameByFrame) {
  const auto &[c, f] = GetParam();
  const ArchRun &run = arch_run(f.arch);
  const remote::VmJobResult *ub = find_result(run, job_name("ubacktrace", c, f.bits));
  ASSERT_TRUE(ub) << "not run: " << run.error;
  const remote::VmJobResult *g = find_result(run, job_name("gdb", c, f.bits));
  ASSERT_TRUE(g && g->ok()) << "no gdb stack to compare with";
  ASSERT_TRUE(ub->ok()) << ub->note << "\nstdout:\n" << ub->out << "stderr:\n" << ub->err
                        << "kernel log:\n" << ub->kernel_log;
  auto gdb = parse_gdb_frames(g->out);
  auto ours = parse_ubacktrace(ub->out);
  EXPECT_FALSE(gdb.empty());
  if (c.hostile) {
    size_t prefix = 0;
    while (prefix < ours.size() && prefix < gdb.size() && ours[prefix] == gdb[prefix].pc)
      ++prefix;
    std::printf("[ hostile  ] %s_%d in the %s guest: %zu frames printed, all of gdb's (of %zu)"
                "%s\n",
                case_name(c).c_str(), f.bits, f.arch.c_str(), ours.size(), gdb.size(),
                prefix == ours.size() ? "" : ": NOT a prefix");
    EXPECT_GE(ours.size(), 1u) << ub->out;
    EXPECT_LE(ours.size(), size_t(kMaxBacktrace)) << ub->out;
    EXPECT_EQ(prefix, ours.size()) << "a frame gdb does not have\ngdb:\n"
                                   << g->out << "print_ubacktrace():\n" << ub->out;
    return;
  }
  MatchRate m = compare_frames(gdb, ours);
  std::printf("[ accuracy ] %s_%d in the %s guest: %zu of %zu frames match (%.1f%%)\n",
              c.program, f.bits, f.arch.c_str(), m.matched, m.total,
              m.total ? 100.0 * m.matched / m.total : 0.0);
  RecordProperty("frames_matched", std::to_string(m.matched) + "/" + std::to_string(m.total));
  EXPECT_EQ(m.matched, m.total) << "gdb:\n" << g->out << "print_ubacktrace():\n" << ub->out;
}

INSTANTIATE_TEST_SUITE_P(
    Guest, Accuracy, ::testing::Combine(::testing::ValuesIn(kCases), ::testing::ValuesIn(kFlavours)),
    [](const auto &param_info) {
      const Flavour &f = std::get<1>(param_info.param);
      return case_name(std::get<0>(param_info.param)) + "_" + std::to_string(f.bits) + "_" +
             f.arch;
    });

// timer.profile in hot_loop's 3-deep loop: every sample taken in inner()
// gives the whole stack. Its frames above inner() are the return addresses
// gdb saw at the system call inner() makes (same layout, randomisation
// off): the sample's frames 1.. equal gdb's frames after inner's.
class Profile : public ::testing::TestWithParam<Flavour> {};

std::vector<std::vector<unsigned long long>> parse_samples(const std::string &text) {
  std::vector<std::vector<unsigned long long>> samples;
  std::istringstream in(text);
  std::string line;
  while (std::getline(in, line)) {
    if (line.rfind("SAMPLE ", 0) != 0)
      continue;
    std::istringstream words(line.substr(7));
    std::vector<unsigned long long> pcs;
    std::string w;
    while (words >> w)
      pcs.push_back(std::stoull(w, nullptr, 16));
    samples.push_back(pcs);
  }
  return samples;
}

TEST_P(Profile, EverySampleInTheHotLoopHasTheWholeStack) {
  const Flavour &f = GetParam();
  const ArchRun &run = arch_run(f.arch);
  const Case &hot = *std::find_if(std::begin(kCases), std::end(kCases),
                                  [](const Case &c) { return !strcmp(c.program, "hot_loop"); });
  const remote::VmJobResult *p = find_result(run, "profile_hot_loop_" + std::to_string(f.bits));
  ASSERT_TRUE(p) << "not run: " << run.error;
  ASSERT_TRUE(p->ok()) << p->note << "\nstdout:\n" << p->out << "stderr:\n" << p->err
                       << "kernel log:\n" << p->kernel_log;
  const remote::VmJobResult *g = find_result(run, job_name("gdb", hot, f.bits));
  ASSERT_TRUE(g && g->ok()) << "no gdb stack to compare with";
  auto gdb = parse_gdb_frames(g->out);
  size_t inner = 0;
  while (inner < gdb.size() && !names(gdb[inner].function, "inner"))
    ++inner;
  ASSERT_LT(inner, gdb.size()) << g->out;
  std::vector<unsigned long long> callers;
  for (size_t i = inner + 1; i < gdb.size(); ++i)
    callers.push_back(gdb[i].pc);
  auto samples = parse_samples(p->out);
  size_t whole = 0;
  for (const auto &s : samples)
    whole += s.size() == callers.size() + 1 && std::equal(callers.begin(), callers.end(),
                                                          s.begin() + 1);
  std::printf("[ profile  ] hot_loop_%d in the %s guest: %zu of %zu samples in inner() have the "
              "whole stack (%zu frames)\n",
              f.bits, f.arch.c_str(), whole, samples.size(), callers.size() + 1);
  EXPECT_GE(samples.size(), 5u) << p->out;
  EXPECT_EQ(whole, samples.size()) << "gdb:\n" << g->out << "samples:\n" << p->out;
}

INSTANTIATE_TEST_SUITE_P(Guest, Profile, ::testing::ValuesIn(kFlavours),
                         [](const auto &param_info) {
                           return "hot_loop_" + std::to_string(param_info.param.bits) + "_" +
                                  param_info.param.arch;
                         });

// The comparison itself, on SystemTap's output format (host only).
TEST(AccuracyParsing, UbacktraceLinesAndMatchRate) {
  auto ours = parse_ubacktrace(
      "some header\n"
      " 0x00007ffff7e8a3ab : __getdents64+0xb/0x60 [/usr/lib/x86_64-linux-gnu/libc.so.6]\n"
      " 0x0000555555555189 : count_entries+0x19/0x30 [/tmp/x/readdir_64]\n"
      " 0x555555555200 [/tmp/x/readdir_64+0x1200]\n"
      " 0x1234 is not a frame\n");
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
