// Script tests: every testsuite/scripts/**/*.stp is one test per target
// architecture. Scripts that stop at a pass (`// pass: N`) run `stap` on the
// host; the others are built here with `stap -p4` for each target kernel and
// run in ONE guest boot per architecture (the first test of an architecture
// runs the whole batch; each test then checks its own result).
#include "command.h"
#include "remote/vm.h"
#include "script_spec.h"

#include <algorithm>
#include <filesystem>
#include <regex>
#include <gtest/gtest.h>
#include <map>
#include <set>
#include <atomic>
#include <mutex>
#include <thread>

using namespace stap::testing;
namespace remote = stap::remote;

namespace {

const std::string kScriptsDir = STAP_TESTSUITE_DIR "/scripts";
const std::string kBin = STAP_BIN_DIR;

std::vector<ScriptSpec> all_specs() {
  std::vector<ScriptSpec> specs;
  for (const auto &path : find_scripts(kScriptsDir)) {
    std::string err;
    if (auto s = read_script_spec(path, err))
      specs.push_back(*s);
  }
  return specs;
}

std::string relative(const std::string &path) {
  return std::filesystem::relative(path, kScriptsDir).string();
}

void expect_lines(const std::string &what, const std::vector<std::string> &want,
                  const std::string &got) {
  EXPECT_EQ(split_lines(got), want) << what << " was:\n" << got;
}

// stdout as the spec says: its `expect:` lines exactly (when it has any, or
// no `expect-match:` either), and a line matching each `expect-match:`.
void expect_stdout(const ScriptSpec &spec, const std::string &got) {
  if (!spec.stdout_lines.empty() || spec.stdout_matches.empty())
    expect_lines("stdout", spec.stdout_lines, got);
  std::vector<std::string> lines = split_lines(got);
  for (const std::string &m : spec.stdout_matches) {
    std::regex re(m);
    bool found = std::any_of(lines.begin(), lines.end(),
                             [&](const std::string &l) { return std::regex_search(l, re); });
    EXPECT_TRUE(found) << "no stdout line matches /" << m << "/; stdout was:\n" << got;
  }
}

// The test name of a script on an architecture (see INSTANTIATE below).
std::string test_name_of(const std::string &path, const std::string &arch) {
  std::string n = relative(path) + "_" + arch;
  for (char &c : n)
    if (!std::isalnum(static_cast<unsigned char>(c)))
      c = '_';
  return n;
}

// The names (after the last '/') of the script tests this run will run.
std::set<std::string> selected_tests() {
  std::set<std::string> names;
  const ::testing::UnitTest *u = ::testing::UnitTest::GetInstance();
  for (int i = 0; i < u->total_test_suite_count(); ++i) {
    const ::testing::TestSuite *suite = u->GetTestSuite(i);
    for (int j = 0; j < suite->total_test_count(); ++j) {
      const ::testing::TestInfo *t = suite->GetTestInfo(j);
      std::string name = t->name();
      if (t->should_run())
        names.insert(name.substr(name.rfind('/') + 1));
    }
  }
  return names;
}

// One batch per architecture, built and run on first use.
struct ArchRun {
  std::string error; // why nothing could run
  std::map<std::string, remote::VmJobResult> results; // by script name
  std::map<std::string, CommandResult> builds;        // stap -p4 of each
  std::string build_root; // the programs of script NAME are in build_root/NAME (BUILD/)
};

// testsuite/kmod/NAME built for `target` under `dir`: the .ko's path, or
// "" with `err` set.
std::string build_kmod(const remote::VmTarget &target, const std::string &name,
                       const std::string &dir, std::string &err) {
  std::string out = dir + "/kmod-" + name;
  if (std::filesystem::exists(out + "/" + name + ".ko"))
    return out + "/" + name + ".ko";
  std::filesystem::create_directories(out);
  for (const auto &e :
       std::filesystem::directory_iterator(std::string(STAP_TESTSUITE_DIR) + "/kmod/" + name))
    std::filesystem::copy_file(e.path(), out + "/" + e.path().filename().string(),
                               std::filesystem::copy_options::overwrite_existing);
  CommandResult r = run_command("make -s -C " + shell_quote(target.build_dir) + " M=" +
                                    shell_quote(out) + " modules",
                                out);
  if (r.status != 0 || !std::filesystem::exists(out + "/" + name + ".ko")) {
    err = "building kmod " + name + " failed:\n" + r.out + r.err;
    return "";
  }
  return out + "/" + name + ".ko";
}

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
  // Under the host's /tmp: the guests see it at the same path (BUILD/).
  char tmp[] = "/tmp/stap-scripts-XXXXXX";
  std::string dir = mkdtemp(tmp);
  run.build_root = dir;
  // Build every module first, two at a time (Kbuild is most of the cost);
  // only those of the tests that run (--gtest_filter).
  std::vector<ScriptSpec> specs;
  std::set<std::string> selected = selected_tests();
  for (const ScriptSpec &s : all_specs())
    if (s.last_pass == 5 && (s.arch.empty() || s.arch == arch) &&
        selected.count(test_name_of(s.path, arch)))
      specs.push_back(with_build_dir(s, dir + "/" + s.name));
  // Our kernel modules, once per architecture, before the scripts that
  // read their DWARF are translated.
  std::map<std::string, std::string> kmods, kmod_errors; // name -> .ko path / error
  for (const ScriptSpec &s : specs)
    if (!s.kmod.empty() && !kmods.count(s.kmod) && !kmod_errors.count(s.kmod)) {
      std::string err;
      std::string ko = build_kmod(*target, s.kmod, dir, err);
      if (ko.empty())
        kmod_errors[s.kmod] = err;
      else
        kmods[s.kmod] = ko;
    }
  std::atomic<size_t> next{0};
  std::vector<CommandResult> results(specs.size());
  const std::string bits = arch == "i386" ? "-m32" : "-m64";
  auto worker = [&] {
    for (size_t i; (i = next++) < specs.size();) {
      const ScriptSpec &s = specs[i];
      // The programs the job runs, built for the target's architecture.
      std::string script_dir = std::filesystem::path(s.path).parent_path().string();
      bool built = true;
      for (const auto &p : s.programs) {
        std::filesystem::create_directories(dir + "/" + s.name);
        CommandResult cc = run_command("cc " + bits + " -O2 -g -o " +
                                           shell_quote(dir + "/" + s.name + "/" + p.name) + " " +
                                           p.args,
                                       script_dir);
        if (cc.status != 0) {
          results[i] = cc;
          results[i].err = "building " + p.name + " failed:\n" + cc.err;
          built = false;
          break;
        }
      }
      if (!built)
        continue;
      std::string kmod_arg;
      if (!s.kmod.empty()) {
        if (!kmods.count(s.kmod)) {
          results[i].status = 1;
          results[i].err = kmod_errors[s.kmod];
          continue;
        }
        kmod_arg = " -d " + shell_quote(kmods.at(s.kmod));
      }
      results[i] = run_command(kBin + "/stap -p4 -r " + target->release + " -m t_" + s.name +
                                   kmod_arg + " " + s.stap_args + " " +
                                   shell_quote(relative(s.script)) + " " + s.script_args,
                               kScriptsDir);
      // -m leaves NAME.ko in the working directory: move it to the batch's.
      if (results[i].status == 0)
        std::filesystem::rename(kScriptsDir + "/t_" + s.name + ".ko", dir + "/t_" + s.name + ".ko");
    }
  };
  std::thread a(worker), b(worker);
  a.join();
  b.join();
  std::map<int, std::vector<remote::VmJob>> jobs_by_cpus; // one boot per CPU count
  for (size_t i = 0; i < specs.size(); ++i) {
    const ScriptSpec &s = specs[i];
    run.builds[s.name] = results[i];
    if (results[i].status != 0)
      continue;
    std::string ko = dir + "/t_" + s.name + ".ko";
    std::string module = "t_" + s.name + ".ko";
    remote::VmJob job;
    job.name = s.name;
    job.command = "staprun " + s.staprun_args + " " + module;
    if (!s.guest_command.empty()) {
      job.command = s.guest_command;
      for (size_t at; (at = job.command.find("MODULE")) != std::string::npos;)
        job.command.replace(at, 6, module);
    }
    if (!s.kmod.empty()) // loaded for this job only: the next script's job loads it again
      job.command = "insmod " + shell_quote(kmods.at(s.kmod)) + " || exit 125; (" + job.command +
                    "); s=$?; rmmod " + s.kmod + "; exit $s";
    job.files = {ko};
    for (const auto &p : s.programs)
      job.files.push_back(dir + "/" + s.name + "/" + p.name);
    job.timeout_s = 60;
    jobs_by_cpus[s.cpus].push_back(job);
  }
  for (const auto &[cpus, jobs] : jobs_by_cpus) {
    remote::VmOptions opts;
    opts.staprun_x86_64 = kBin + "/staprun";
    opts.staprun_i386 = kBin + "/staprun32";
    opts.cpus = cpus;
    try {
      for (auto &r : remote::run_vm_batch(*target, jobs, opts).jobs)
        run.results[r.name] = r;
    } catch (const remote::VmError &e) {
      run.error = e.what();
    }
  }
  std::filesystem::remove_all(dir);
  return run;
}

class ScriptTest : public ::testing::TestWithParam<std::tuple<ScriptSpec, std::string>> {};

TEST_P(ScriptTest, Runs) {
  const auto &[spec, arch] = GetParam();
  if (!spec.arch.empty() && spec.arch != arch)
    GTEST_SKIP() << "a test for " << spec.arch << " only";
  if (spec.last_pass != 5) {
    if (arch != (spec.arch.empty() ? "x86_64" : spec.arch))
      GTEST_SKIP() << "host-only test";
    // For the kernel the VM tests boot, not the host's: kernel function
    // names are checked against that release's symbols.
    auto target = remote::default_vm_target(arch);
    std::string release = target ? " -r " + target->release : "";
    CommandResult r = run_command(kBin + "/stap -p" + std::to_string(spec.last_pass) + release +
                                      " " + spec.stap_args + " " + shell_quote(relative(spec.script)) + " " +
                                      spec.script_args,
                                  kScriptsDir);
    EXPECT_EQ(r.status, spec.status) << r.err;
    expect_stdout(spec, r.out);
    if (spec.check_stderr)
      expect_lines("stderr", spec.stderr_lines, r.err);
    return;
  }
  const ArchRun &run = arch_run(arch);
  // What the expected lines say of BUILD/, as the job saw it.
  ScriptSpec expected = with_build_dir(spec, run.build_root + "/" + spec.name);
  auto b = run.builds.find(spec.name);
  ASSERT_TRUE(b != run.builds.end()) << "no " << arch << " target: " << run.error;
  ASSERT_EQ(b->second.status, 0) << "stap -p4 failed:\n" << b->second.err;
  auto it = run.results.find(spec.name);
  ASSERT_TRUE(it != run.results.end()) << "not run: " << run.error;
  const remote::VmJobResult &r = it->second;
  ASSERT_TRUE(r.ran) << r.kernel_log;
  EXPECT_FALSE(r.timed_out);
  EXPECT_FALSE(r.kernel_problem) << "kernel log:\n" << r.kernel_log;
  EXPECT_EQ(r.exit_status, spec.status) << r.err;
  expect_stdout(expected, r.out);
  if (spec.check_stderr)
    expect_lines("stderr", expected.stderr_lines, r.err);
}

std::string test_name(const ::testing::TestParamInfo<ScriptTest::ParamType> &info) {
  return test_name_of(std::get<0>(info.param).path, std::get<1>(info.param));
}

INSTANTIATE_TEST_SUITE_P(Scripts, ScriptTest,
                         ::testing::Combine(::testing::ValuesIn(all_specs()),
                                            ::testing::Values("x86_64", "i386")),
                         test_name);

} // namespace
