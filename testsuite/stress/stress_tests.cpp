// Kernel-side stress and fault tests (docs/reliability.md). Each case is a
// script testsuite/stress/NAME.stp and its guest driver NAME.sh: the module
// is built for the newest x86_64 and i386 kernels, and every case of an
// architecture runs in one guest boot as `sh ./NAME.sh t_NAME.ko SCALE`.
// The driver loads and unloads, kills, floods, checks its own figures and
// exits non-zero with a `FAIL:` line when something is off; a kernel oops,
// warning, lockdep or sanitizer report fails the case too (the VM runner's
// kernel-log check). Figures come back as `figure: ...` lines.
//
// SCALE is `sample` (CI: bounded, a few minutes for both architectures) or,
// with STAP_STRESS=full in the environment, `full` (the 1,000 loads,
// 60 s storms): testsuite/stress/run-full.
//
// Directives in NAME.stp (`//` lines):
//   // stap: ARGS            extra stap options
//   // args: WORDS           the script's arguments (@1...)
//   // module: SUFFIX ARGS   also build t_NAME_SUFFIX.ko with ARGS added
//   // program: NAME ARGS    cc -m64|-m32 -O2 -g -o NAME ARGS (in the job)
//   // timeout: SAMPLE FULL  the job's timeout in seconds at each scale
//   // cpus: N               the guest's CPUs (cases with the same count share a boot)
// BUILD/ in the stap and args lines is the directory the programs were
// built in, under the host's /tmp, which the guests see at the same path;
// the driver gets it as $BUILD.
#include "command.h"
#include "remote/vm.h"

#include <atomic>
#include <filesystem>
#include <fstream>
#include <gtest/gtest.h>
#include <map>
#include <mutex>
#include <sstream>
#include <thread>

using namespace stap::testing;
namespace remote = stap::remote;
namespace fs = std::filesystem;

namespace {

const std::string kDir = STAP_TESTSUITE_DIR "/stress";
const std::string kBin = STAP_BIN_DIR;

bool full_scale() {
  const char *s = std::getenv("STAP_STRESS");
  return s && std::string(s) == "full";
}

struct Case {
  std::string name, stap_args, script_args;
  std::vector<std::pair<std::string, std::string>> modules; // suffix, extra args
  std::vector<std::pair<std::string, std::string>> programs; // name, cc args
  int timeout_sample = 120, timeout_full = 900, cpus = 1;
};

std::vector<Case> all_cases() {
  std::vector<Case> cases;
  std::vector<fs::path> files;
  for (const auto &e : fs::directory_iterator(kDir))
    if (e.path().extension() == ".stp")
      files.push_back(e.path());
  std::sort(files.begin(), files.end());
  for (const fs::path &p : files) {
    Case c;
    c.name = p.stem().string();
    std::ifstream in(p);
    for (std::string line; std::getline(in, line);) {
      auto value = [&](const std::string &key, std::string &v) {
        std::string prefix = "// " + key + ":";
        if (line.rfind(prefix, 0) != 0)
          return false;
        v = line.substr(prefix.size());
        v.erase(0, v.find_first_not_of(' '));
        return true;
      };
      std::string v;
      if (value("stap", v)) {
        c.stap_args += " " + v;
      } else if (value("args", v)) {
        c.script_args += " " + v;
      } else if (value("module", v)) {
        size_t sp = v.find(' ');
        c.modules.push_back({v.substr(0, sp), sp == std::string::npos ? "" : v.substr(sp + 1)});
      } else if (value("program", v)) {
        size_t sp = v.find(' ');
        c.programs.push_back({v.substr(0, sp), v.substr(sp + 1)});
      } else if (value("timeout", v)) {
        std::istringstream(v) >> c.timeout_sample >> c.timeout_full;
      } else if (value("cpus", v)) {
        c.cpus = std::stoi(v);
      }
    }
    cases.push_back(c);
  }
  return cases;
}

struct ArchRun {
  std::string error;
  std::map<std::string, std::string> build_errors;
  std::map<std::string, remote::VmJobResult> results;
};

std::string test_name_of(const Case &c, const std::string &arch) { return c.name + "_" + arch; }

// The cases this run selected (--gtest_filter): only they are built and run.
bool selected(const Case &c, const std::string &arch) {
  const ::testing::UnitTest *u = ::testing::UnitTest::GetInstance();
  for (int i = 0; i < u->total_test_suite_count(); ++i) {
    const ::testing::TestSuite *s = u->GetTestSuite(i);
    for (int j = 0; j < s->total_test_count(); ++j) {
      const ::testing::TestInfo *t = s->GetTestInfo(j);
      std::string n = t->name();
      if (t->should_run() && n.substr(n.rfind('/') + 1) == test_name_of(c, arch))
        return true;
    }
  }
  return false;
}

const ArchRun &arch_run(const std::string &arch) {
  static std::map<std::string, ArchRun> runs;
  static std::mutex mu;
  std::lock_guard<std::mutex> lock(mu);
  if (runs.count(arch))
    return runs[arch];
  ArchRun &run = runs[arch];
  auto target = remote::default_vm_target(arch);
  if (!target) {
    run.error = "no " + arch + " kernel with headers installed";
    return run;
  }
  char tmp[] = "/tmp/stap-stress-XXXXXX";
  std::string dir = mkdtemp(tmp);
  std::vector<Case> cases;
  for (const Case &c : all_cases())
    if (selected(c, arch))
      cases.push_back(c);
  // The programs, then the modules (-d reads the programs), two builds at
  // a time.
  struct Build {
    const Case *c;
    std::string what, cmd;
  };
  std::vector<Build> programs, modules;
  const std::string bits = arch == "i386" ? "-m32" : "-m64";
  auto build_dir = [&](const Case &c, const std::string &text) {
    std::string t = text;
    for (size_t at; (at = t.find("BUILD/")) != std::string::npos;)
      t.replace(at, 6, dir + "/" + c.name + "/");
    return t;
  };
  for (const Case &c : cases) {
    std::string cdir = dir + "/" + c.name;
    fs::create_directories(cdir);
    for (const auto &[name, args] : c.programs)
      programs.push_back({&c, name, "cc " + bits + " -O2 -g -pthread -o " +
                                        shell_quote(cdir + "/" + name) + " " + args});
    std::string stap = kBin + "/stap -p4 -r " + target->release + build_dir(c, c.stap_args) + " ";
    std::string script = shell_quote(kDir + "/" + c.name + ".stp") + build_dir(c, c.script_args);
    modules.push_back({&c, "t_" + c.name + ".ko",
                       "cd " + shell_quote(cdir) + " && " + stap + "-m t_" + c.name + " " + script +
                           " >/dev/null"});
    for (const auto &[suffix, args] : c.modules)
      modules.push_back({&c, "t_" + c.name + "_" + suffix + ".ko",
                         "cd " + shell_quote(cdir) + " && " + stap + args + " -m t_" + c.name +
                             "_" + suffix + " " + script + " >/dev/null"});
  }
  for (std::vector<Build> *phase : {&programs, &modules}) {
    std::vector<CommandResult> results(phase->size());
    std::atomic<size_t> next{0};
    auto worker = [&] {
      for (size_t i; (i = next++) < phase->size();)
        results[i] = run_command((*phase)[i].cmd, kDir);
    };
    std::thread a(worker), b(worker);
    a.join();
    b.join();
    for (size_t i = 0; i < phase->size(); ++i)
      if (results[i].status != 0)
        run.build_errors[(*phase)[i].c->name] +=
            "building " + (*phase)[i].what + " failed:\n" + results[i].out + results[i].err;
  }
  std::map<int, std::vector<remote::VmJob>> jobs_by_cpus;
  const std::string scale = full_scale() ? "full" : "sample";
  for (const Case &c : cases) {
    if (run.build_errors.count(c.name))
      continue;
    std::string cdir = dir + "/" + c.name;
    remote::VmJob job;
    job.name = c.name;
    job.command = "BUILD=" + shell_quote(cdir) + " sh ./" + c.name + ".sh t_" + c.name + ".ko " + scale;
    job.files.push_back(kDir + "/" + c.name + ".sh");
    job.files.push_back(kDir + "/lib.sh");
    for (const auto &e : fs::directory_iterator(cdir))
      job.files.push_back(e.path().string());
    job.timeout_s = full_scale() ? c.timeout_full : c.timeout_sample;
    jobs_by_cpus[c.cpus].push_back(job);
  }
  for (const auto &[cpus, jobs] : jobs_by_cpus) {
    remote::VmOptions opts;
    opts.staprun_x86_64 = kBin + "/staprun";
    opts.staprun_i386 = kBin + "/staprun32";
    opts.cpus = cpus;
    // What Debian's kernels can check without a debug build (no KASAN or
    // lockdep in any flavour, docs/reliability.md): SLUB red zones and
    // poisoning (out-of-bounds writes and use after free in slab objects)
    // and page poisoning; their reports fail the case like an oops.
    opts.kernel_args = "slub_debug=FZPU page_poison=1";
    // A boot takes 5 s on an idle machine; on a shared, loaded one TCG with
    // slub_debug has taken over 40 s, and the default limit is for tests
    // that boot often.
    opts.boot_timeout_s = 600;
    try {
      for (auto &r : remote::run_vm_batch(*target, jobs, opts).jobs)
        run.results[r.name] = r;
    } catch (const remote::VmError &e) {
      run.error = e.what();
    }
  }
  if (!std::getenv("STAP_STRESS_KEEP"))
    fs::remove_all(dir);
  return run;
}

class StressTest : public ::testing::TestWithParam<std::tuple<Case, std::string>> {};

TEST_P(StressTest, Survives) {
  const auto &[c, arch] = GetParam();
  const ArchRun &run = arch_run(arch);
  if (!run.error.empty() && run.results.empty())
    GTEST_SKIP() << run.error;
  auto be = run.build_errors.find(c.name);
  ASSERT_TRUE(be == run.build_errors.end()) << be->second;
  auto it = run.results.find(c.name);
  ASSERT_TRUE(it != run.results.end()) << "not run: " << run.error;
  const remote::VmJobResult &r = it->second;
  // The figures, for docs/reliability.md.
  std::istringstream out(r.out);
  for (std::string line; std::getline(out, line);)
    if (line.rfind("figure:", 0) == 0)
      std::printf("[ figures  ] %s %s:%s\n", arch.c_str(), c.name.c_str(), line.substr(7).c_str());
  ASSERT_TRUE(r.ran) << r.kernel_log;
  EXPECT_FALSE(r.timed_out) << "stdout:\n" << r.out << "stderr:\n" << r.err;
  EXPECT_FALSE(r.kernel_problem) << "kernel log:\n" << r.kernel_log;
  EXPECT_EQ(r.exit_status, 0) << "stdout:\n" << r.out << "stderr:\n" << r.err;
}

std::string test_name(const ::testing::TestParamInfo<StressTest::ParamType> &info) {
  return test_name_of(std::get<0>(info.param), std::get<1>(info.param));
}

void PrintTo(const Case &c, std::ostream *os) { *os << c.name; }

INSTANTIATE_TEST_SUITE_P(Stress, StressTest,
                         ::testing::Combine(::testing::ValuesIn(all_cases()),
                                            ::testing::Values("x86_64", "i386")),
                         test_name);

} // namespace
