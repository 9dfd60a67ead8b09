// stap's command line: what SystemTap accepts, and what it rejects.
#include "driver/options.h"

#include <gtest/gtest.h>
#include <vector>

using namespace stap;

namespace {

std::optional<Options> parse(std::vector<std::string> args) {
  args.insert(args.begin(), "stap");
  std::vector<char *> argv;
  for (auto &a : args)
    argv.push_back(a.data());
  argv.push_back(nullptr);
  bool exit_now = false;
  testing::internal::CaptureStderr();
  auto o = parse_options(static_cast<int>(args.size()), argv.data(), exit_now);
  testing::internal::GetCapturedStderr();
  return o;
}

} // namespace

TEST(Options, ScriptFileWithArgumentsAndOptionsAfterIt) {
  auto o = parse({"-p2", "t.stp", "a1", "-v", "a2"});
  ASSERT_TRUE(o);
  EXPECT_EQ(o->script_file, "t.stp");
  EXPECT_EQ(o->script_args, (std::vector<std::string>{"a1", "a2"}));
  EXPECT_EQ(o->verbose, 1);
  EXPECT_EQ(o->last_pass, 2);
}

TEST(Options, ScriptTextAndRunOptions) {
  auto o = parse({"-e", "probe begin {}", "-c", "ls -l", "-o", "out", "-m", "mod_1", "-r",
                  "6.1.0-56-amd64", "-k", "-D", "MAXACTION=5", "--remote=qemu://"});
  ASSERT_TRUE(o);
  EXPECT_EQ(*o->script_text, "probe begin {}");
  EXPECT_EQ(o->target_command, "ls -l");
  EXPECT_EQ(o->output_file, "out");
  EXPECT_EQ(o->module_name, "mod_1");
  EXPECT_EQ(o->kernel_release, "6.1.0-56-amd64");
  EXPECT_TRUE(o->keep_tmpdir);
  EXPECT_EQ(o->defines, std::vector<std::string>{"MAXACTION=5"});
  EXPECT_EQ(o->remote, "qemu://");
}

TEST(Options, RejectsWhatSystemTapRejects) {
  EXPECT_FALSE(parse({"-p0", "t.stp"}));
  EXPECT_FALSE(parse({"-p6", "t.stp"}));
  EXPECT_FALSE(parse({"-e", "a", "-e", "b"}));
  EXPECT_FALSE(parse({"-c", "ls", "-x", "1", "t.stp"}));
  EXPECT_FALSE(parse({"-s", "0", "t.stp"}));
  EXPECT_FALSE(parse({"-m", "bad-name", "t.stp"}));
  EXPECT_FALSE(parse({"-m", "", "t.stp"}));
  EXPECT_FALSE(parse({"-x", "abc", "t.stp"}));
  EXPECT_FALSE(parse({"-G", "novalue", "t.stp"}));
  EXPECT_FALSE(parse({"--no-such-option", "t.stp"}));
  EXPECT_FALSE(parse({}));
}

TEST(Options, CacheOptions) {
  auto o = parse({"--disable-cache", "--poison-cache", "-e", "probe begin {}"});
  ASSERT_TRUE(o);
  EXPECT_TRUE(o->disable_cache);
  EXPECT_TRUE(o->poison_cache);
  EXPECT_FALSE(o->clean_cache);
  // --clean-cache prunes the cache and exits: it needs no script.
  auto c = parse({"--clean-cache"});
  ASSERT_TRUE(c);
  EXPECT_TRUE(c->clean_cache);
  EXPECT_FALSE(parse({"-v"})) << "a script is still required without --clean-cache";
}

TEST(Options, SysrootMustBeADirectory) {
  auto o = parse({"--sysroot=/usr/", "-e", "probe begin {}"});
  ASSERT_TRUE(o);
  EXPECT_EQ(o->sysroot, "/usr"); // trailing slashes dropped
  EXPECT_FALSE(parse({"--sysroot=/no/such/dir", "-e", "probe begin {}"}));
  EXPECT_FALSE(parse({"--sysroot=/etc/passwd", "-e", "probe begin {}"}));
  EXPECT_FALSE(parse({"--sysroot=", "-e", "probe begin {}"}));
}
