// The module cache as SystemTap users know it: an unchanged script is a
// cache hit (passes 3 and 4 say "using cached"), anything that changes the
// module misses, a damaged entry is rebuilt and never handed out, and the
// size limit is enforced. Every run really builds with Kbuild.
#include "command.h"
#include "remote/vm.h"

#include <filesystem>
#include <fstream>
#include <gtest/gtest.h>
#include <regex>
#include <sstream>

using namespace stap::testing;
namespace fs = std::filesystem;

namespace {

const std::string kStap = STAP_BIN_DIR "/stap";
const std::string kScript = "-e 'probe begin { println(\"cached\"); exit() }'";

std::string slurp(const std::string &path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

std::string chomp(std::string s) {
  while (!s.empty() && s.back() == '\n')
    s.pop_back();
  return s;
}

bool has(const std::string &text, const std::string &what) {
  return text.find(what) != std::string::npos;
}

class ModuleCache : public ::testing::Test {
protected:
  void SetUp() override {
    auto t = stap::remote::default_vm_target("x86_64");
    if (!t)
      GTEST_SKIP() << "no x86_64 kernel headers installed";
    release_ = t->release;
    char tmp[] = "/tmp/stap-cache-test-XXXXXX";
    dir_ = mkdtemp(tmp);
    fs::create_directories(dir_ + "/work");
  }
  void TearDown() override {
    if (!dir_.empty())
      fs::remove_all(dir_);
  }
  // stap -v -p4 -r RELEASE ARGS with SYSTEMTAP_DIR in our directory.
  CommandResult stap(const std::string &args) {
    return run_command("SYSTEMTAP_DIR=" + shell_quote(dir_ + "/stapdir") + " " + kStap +
                           " -v -p4 -r " + release_ + " " + args,
                       dir_ + "/work");
  }
  std::string cache() const { return dir_ + "/stapdir/cache"; }

  std::string release_, dir_;
};

TEST_F(ModuleCache, SecondRunIsAHitOnTheSameModule) {
  CommandResult first = stap(kScript);
  ASSERT_EQ(first.status, 0) << first.err;
  EXPECT_TRUE(has(first.err, "Pass 4: compiled C into")) << first.err;
  EXPECT_FALSE(has(first.err, "using cached")) << first.err;
  // -p4 prints the module's place in the cache, as SystemTap does.
  std::string ko = chomp(first.out);
  std::smatch m;
  ASSERT_TRUE(std::regex_match(ko, m, std::regex(cache() + "/([0-9a-f]{2})/stap_\\1[0-9a-f]{30}\\.ko")))
      << ko;
  std::string built = slurp(ko);
  ASSERT_EQ(built.substr(0, 4), "\x7f" "ELF");

  CommandResult second = stap(kScript);
  ASSERT_EQ(second.status, 0) << second.err;
  std::string stem = ko.substr(0, ko.size() - 3);
  EXPECT_TRUE(has(second.err, "Pass 3: using cached " + stem + ".c\n")) << second.err;
  EXPECT_TRUE(has(second.err, "Pass 4: using cached " + stem + ".ko\n")) << second.err;
  EXPECT_FALSE(has(second.err, "compiled C into")) << second.err;
  EXPECT_EQ(chomp(second.out), ko);
  EXPECT_EQ(slurp(ko), built);
  // The entry keeps the C it was built from and what went into its key.
  EXPECT_TRUE(has(slurp(stem + ".c"), "#include \"stp_runtime.h\""));
  std::string log = slurp(stem + "_hash.log");
  EXPECT_TRUE(has(log, "kernel-release: " + release_ + "\n")) << log;
  EXPECT_TRUE(has(log, "payload .ko ")) << log;
  // The runtime object is cached beside the modules.
  EXPECT_TRUE(fs::exists(cache() + "/runtime"));
}

TEST_F(ModuleCache, AChangedDefineOrModuleNameMisses) {
  CommandResult plain = stap(kScript);
  ASSERT_EQ(plain.status, 0) << plain.err;
  CommandResult defined = stap("-D MAXACTION=500 " + kScript);
  ASSERT_EQ(defined.status, 0) << defined.err;
  EXPECT_FALSE(has(defined.err, "using cached")) << defined.err;
  EXPECT_NE(chomp(defined.out), chomp(plain.out));
  // -m: the module carries its name, so the name is part of the key; the
  // module is also copied into the working directory.
  CommandResult named = stap("-m cache_named " + kScript);
  ASSERT_EQ(named.status, 0) << named.err;
  EXPECT_FALSE(has(named.err, "using cached")) << named.err;
  EXPECT_EQ(chomp(named.out), dir_ + "/work/cache_named.ko");
  CommandResult again = stap("-m cache_named " + kScript);
  EXPECT_TRUE(has(again.err, "Pass 4: using cached")) << again.err;
  EXPECT_EQ(slurp(dir_ + "/work/cache_named.ko").substr(0, 4), "\x7f" "ELF");
}

TEST_F(ModuleCache, ADamagedModuleIsRebuiltNeverUsed) {
  CommandResult first = stap(kScript);
  ASSERT_EQ(first.status, 0) << first.err;
  std::string ko = chomp(first.out);
  std::string good = slurp(ko);
  std::ofstream(ko, std::ios::binary | std::ios::trunc) << "not a module";
  CommandResult second = stap(kScript);
  ASSERT_EQ(second.status, 0) << second.err;
  EXPECT_TRUE(has(second.err, "ignoring a damaged cache entry: " + ko +
                                  " does not match its recorded hash"))
      << second.err;
  EXPECT_FALSE(has(second.err, "using cached")) << second.err;
  EXPECT_TRUE(has(second.err, "Pass 4: compiled C into")) << second.err;
  EXPECT_EQ(chomp(second.out), ko);
  std::string rebuilt = slurp(ko);
  EXPECT_EQ(rebuilt.substr(0, 4), "\x7f" "ELF");
  EXPECT_EQ(rebuilt.size(), good.size());
}

TEST_F(ModuleCache, DisabledCacheIsNeitherReadNorWritten) {
  CommandResult r = stap("--disable-cache " + kScript);
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_FALSE(fs::exists(cache())) << "the cache was written";
  // Without the cache the module is copied out of the scratch directory.
  std::string ko = chomp(r.out);
  EXPECT_EQ(fs::path(ko).parent_path(), fs::path(dir_ + "/work"));
  EXPECT_EQ(slurp(ko).substr(0, 4), "\x7f" "ELF");
}

TEST_F(ModuleCache, CleanCacheEnforcesTheSizeLimit) {
  CommandResult r = stap(kScript);
  ASSERT_EQ(r.status, 0) << r.err;
  std::string ko = chomp(r.out);
  // The defaults were written on first use, as SystemTap does.
  EXPECT_EQ(chomp(slurp(cache() + "/cache_mb_limit")), "256");
  EXPECT_EQ(chomp(slurp(cache() + "/cache_clean_interval_s")), "300");
  ASSERT_TRUE(fs::exists(ko));
  std::ofstream(cache() + "/cache_mb_limit", std::ios::trunc) << "0\n";
  CommandResult clean = run_command("SYSTEMTAP_DIR=" + shell_quote(dir_ + "/stapdir") + " " +
                                        kStap + " --clean-cache",
                                    dir_);
  ASSERT_EQ(clean.status, 0) << clean.err;
  EXPECT_FALSE(fs::exists(ko));
  size_t left = 0;
  for (auto &e : fs::recursive_directory_iterator(cache()))
    left += e.path().extension() == ".ko" || e.path().extension() == ".o";
  EXPECT_EQ(left, 0u);
}

} // namespace

namespace {

std::string only(const std::string &dir, const std::string &suffix) {
  for (auto &e : fs::recursive_directory_iterator(dir)) {
    std::string p = e.path().string();
    if (p.size() > suffix.size() && p.compare(p.size() - suffix.size(), suffix.size(), suffix) == 0)
      return p;
  }
  return {};
}

TEST_F(ModuleCache, LaterModulesReuseTheRuntimeAndKbuildsEnvironment) {
  CommandResult first = stap("-v " + kScript);
  ASSERT_EQ(first.status, 0) << first.err;
  EXPECT_TRUE(has(first.err, "Pass 4: compiling the runtime into")) << first.err;
  EXPECT_TRUE(has(first.err, "running Kbuild's make (saving its sub-make environment)"))
      << first.err;
  CommandResult second = stap("-v -e 'probe begin { println(\"another\"); exit() }'");
  ASSERT_EQ(second.status, 0) << second.err;
  EXPECT_FALSE(has(second.err, "compiling the runtime")) << second.err;
  // The first build recorded Kbuild's commands: the second runs them
  // without make, from the kernel's precompiled header (built once).
  EXPECT_TRUE(has(second.err, "Pass 4: precompiling the kernel's headers into \"" + cache() +
                                  "/runtime/"))
      << second.err;
  EXPECT_TRUE(has(second.err, "Pass 4: built with recorded commands and the precompiled header"))
      << second.err;
  EXPECT_EQ(slurp(chomp(second.out)).substr(0, 4), "\x7f" "ELF");
  CommandResult third = stap("-v -e 'probe begin { println(\"a third\"); exit() }'");
  ASSERT_EQ(third.status, 0) << third.err;
  EXPECT_FALSE(has(third.err, "precompiling")) << third.err;
  EXPECT_TRUE(has(third.err, "Pass 4: built with recorded commands and the precompiled header"))
      << third.err;
}

// Without a recorded recipe (a first build with -m records none: its name
// could occur elsewhere in the commands), Kbuild's saved environment
// still spares the top Makefile.
TEST_F(ModuleCache, WithoutRecordedCommandsTheSubMakesRun) {
  CommandResult first = stap("-v -m first_named " + kScript);
  ASSERT_EQ(first.status, 0) << first.err;
  CommandResult second = stap("-v -m second_named " + kScript);
  ASSERT_EQ(second.status, 0) << second.err;
  EXPECT_TRUE(has(second.err, "running Kbuild's sub-makes with " + cache() + "/runtime/"))
      << second.err;
  EXPECT_TRUE(has(second.err, "Pass 4: built with Kbuild's sub-makes")) << second.err;
}

// A module built from the recorded commands and the precompiled header is
// the module Kbuild builds: the same sections of the same sizes, the same
// code (only the name differs, in .modinfo and the module struct).
TEST_F(ModuleCache, ADirectBuildGivesKbuildsModule) {
  ASSERT_EQ(stap(kScript).status, 0); // records the commands
  const std::string script =
      "-e 'global a probe kernel.function(\"vfs_read\") { a[execname()]++ } "
      "probe timer.s(1) { foreach (k in a) printf(\"%s %d\\n\", k, a[k]); exit() }'";
  CommandResult direct = stap("-v -m direct_a " + script);
  ASSERT_EQ(direct.status, 0) << direct.err;
  ASSERT_TRUE(has(direct.err, "built with recorded commands and the precompiled header"))
      << direct.err;
  for (auto &e : fs::recursive_directory_iterator(cache() + "/runtime"))
    if (has(e.path().filename().string(), "kbuild_recipe_"))
      fs::remove(e.path());
  CommandResult kbuild = stap("-v -m direct_b " + script);
  ASSERT_EQ(kbuild.status, 0) << kbuild.err;
  ASSERT_TRUE(has(kbuild.err, "built with Kbuild's sub-makes")) << kbuild.err;
  auto sections = [](const std::string &ko) {
    return run_command("readelf -S -W " + shell_quote(ko) + " | awk '/^ *\\[/ {print $2, $6}'", "/").out;
  };
  // objdump names a call's target after the nearest symbol, which in a
  // section without functions can be a `__UNIQUE_ID_vermagicN` of
  // .modinfo; N comes from __COUNTER__, which the precompiled header
  // (with NAME.mod.c's includes) advances differently: not the code.
  auto code = [](const std::string &ko) {
    return run_command("objdump -dr " + shell_quote(ko) +
                           " | tail -n +4 | sed -E 's/(__UNIQUE_ID_[A-Za-z_]*[A-Za-z_])[0-9]+/\\1N/g'",
                       "/")
        .out;
  };
  std::string a = dir_ + "/work/direct_a.ko", b = dir_ + "/work/direct_b.ko";
  EXPECT_EQ(sections(a), sections(b));
  EXPECT_TRUE(has(sections(a), ".text ")) << sections(a);
  EXPECT_FALSE(has(sections(a), ".eh_frame")) << sections(a);
  EXPECT_EQ(code(a), code(b));
  EXPECT_TRUE(has(run_command("modinfo -F name " + a, "/").out, "direct_a"));
}

// A compile error makes the direct build fail quietly; Kbuild then builds
// and reports it as always.
TEST_F(ModuleCache, ACompileErrorIsReportedByKbuild) {
  ASSERT_EQ(stap(kScript).status, 0);
  CommandResult bad = stap("-g -e 'function f:long() %{ STAP_RETVALUE = undefined_thing; %} "
                           "probe begin { println(f()); exit() }'");
  EXPECT_NE(bad.status, 0);
  EXPECT_TRUE(has(bad.err, "error: \u2018undefined_thing\u2019 undeclared")) << bad.err;
  EXPECT_TRUE(has(bad.err, "Pass 4: compilation failed.")) << bad.err;
}

// A precompiled header is checked by its size (hashing tens of MB would
// cost more than it saves): a truncated one is rebuilt.
TEST_F(ModuleCache, ADamagedPrecompiledHeaderIsRebuilt) {
  ASSERT_EQ(stap(kScript).status, 0);
  CommandResult second = stap("-v -e 'probe begin { println(\"another\"); exit() }'");
  ASSERT_EQ(second.status, 0) << second.err;
  std::string gch = only(cache() + "/runtime", ".h.gch");
  ASSERT_FALSE(gch.empty());
  fs::resize_file(gch, fs::file_size(gch) / 2);
  CommandResult third = stap("-v -e 'probe begin { println(\"a third\"); exit() }'");
  ASSERT_EQ(third.status, 0) << third.err;
  EXPECT_TRUE(has(third.err, "Pass 4: precompiling the kernel's headers")) << third.err;
  EXPECT_TRUE(has(third.err, "built with recorded commands and the precompiled header"))
      << third.err;
}

TEST_F(ModuleCache, ADamagedRuntimeObjectIsRebuilt) {
  CommandResult first = stap("-v " + kScript);
  ASSERT_EQ(first.status, 0) << first.err;
  std::string obj = only(cache() + "/runtime", ".o");
  ASSERT_FALSE(obj.empty());
  std::ofstream(obj, std::ios::binary | std::ios::app) << "trailing garbage";
  CommandResult second = stap("-v -e 'probe begin { println(\"another\"); exit() }'");
  ASSERT_EQ(second.status, 0) << second.err;
  EXPECT_TRUE(has(second.err, "rebuilding the runtime object: " + obj +
                                  " does not match its recorded hash"))
      << second.err;
  EXPECT_EQ(slurp(chomp(second.out)).substr(0, 4), "\x7f" "ELF");
}

// A module links only the runtime parts its C uses (runtime/stp_features.h):
// one runtime object per set of parts, each cached.
TEST_F(ModuleCache, ModulesLinkOnlyTheRuntimePartsTheyUse) {
  CommandResult hello = stap(kScript);
  ASSERT_EQ(hello.status, 0) << hello.err;
  CommandResult ubt = stap("-e 'global a probe kprobe.function(\"vfs_read\") "
                           "{ a[execname()]++; print_ubacktrace() }'");
  ASSERT_EQ(ubt.status, 0) << ubt.err;
  auto symbols = [](const std::string &ko) {
    return run_command("nm " + shell_quote(ko), "/").out;
  };
  std::string h = symbols(chomp(hello.out)), u = symbols(chomp(ubt.out));
  for (const char *part : {"uw_step_ws", "stp_vma_lookup", "stp_map_get", "stp_kprobe_pre",
                           "stp_regex_match", "stp_stat_merge"}) {
    EXPECT_FALSE(has(h, part)) << "hello carries " << part;
  }
  for (const char *part : {"uw_step_ws", "stp_vma_lookup", "stp_map_get", "stp_kprobe_pre"})
    EXPECT_TRUE(has(u, part)) << "the backtrace module lacks " << part;
  EXPECT_FALSE(has(u, "stp_regex_match"));
  EXPECT_LT(fs::file_size(chomp(hello.out)), fs::file_size(chomp(ubt.out)));
  // two sets of parts, two runtime objects
  unsigned objects = 0;
  for (auto &e : fs::recursive_directory_iterator(cache() + "/runtime"))
    objects += e.path().extension() == ".o";
  EXPECT_EQ(objects, 2u);
}

} // namespace
