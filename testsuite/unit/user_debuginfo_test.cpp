// dwarf/user_debuginfo: a user program's DWARF found where gdb finds it,
// for programs built here with -g, their DWARF moved out with objcopy as
// Debian's packages do. Target paths map into a scratch tree standing for
// the target's file system (the sysroot).
#include "dwarf/functions.h"
#include "dwarf/user_debuginfo.h"

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <gtest/gtest.h>
#include <unistd.h>

using namespace stap;
namespace fs = std::filesystem;

namespace {

class UserDebuginfo : public ::testing::Test {
protected:
  void SetUp() override {
    // One directory per process: CTest runs each test of this fixture as
    // its own process, two at a time, and a shared name raced.
    root_ = (fs::temp_directory_path() /
             ("stap-user-debuginfo-test." + std::to_string(::getpid()))).string();
    fs::remove_all(root_);
    fs::create_directories(root_ + "/usr/bin");
    std::ofstream(root_ + "/prog.c") << "int twice(int x) { return 2 * x; }\n"
                                        "int main(int argc, char **argv) { return twice(argc); }\n";
  }
  void TearDown() override { fs::remove_all(root_); }

  // Builds /usr/bin/NAME -g with a build-id, then runs `split` (a shell
  // command in its directory, $P the program) to move its DWARF out.
  void build(const std::string &name, const std::string &split,
             const std::string &flags = "-O2") {
    std::string dir = root_ + "/usr/bin";
    std::string cmd = "cd '" + dir + "' && cc " + flags + " -g -Wl,--build-id -o " + name + " ../../prog.c" +
                      (split.empty() ? "" : " && P=" + name + " && " + split);
    ASSERT_EQ(std::system(cmd.c_str()), 0) << cmd;
  }

  dwarf::UserDebuginfo sysroot() {
    std::string root = root_;
    return dwarf::UserDebuginfo([root](const std::string &p) {
      return fs::exists(root + p) ? root + p : std::string();
    });
  }

  // Whether the program's DWARF was found and names twice().
  ::testing::AssertionResult finds_twice(dwarf::UserDebuginfo &d, const std::string &name) {
    std::string why;
    dwarf::DebugFile *f = d.object("/usr/bin/" + name, root_ + "/usr/bin/" + name, why);
    if (!f)
      return ::testing::AssertionFailure() << why;
    std::string err;
    auto pat = dwarf::parse_function_pattern("twice@prog.c", err);
    auto fns = dwarf::find_functions(*f, *pat, true, false);
    if (fns.size() != 1 || !f->symbol_at(fns[0].entry))
      return ::testing::AssertionFailure() << "no twice() in " << name << "'s DWARF";
    return ::testing::AssertionSuccess();
  }

  std::string root_;
};

TEST_F(UserDebuginfo, TheProgramsOwnDwarf) {
  build("own", "");
  auto d = sysroot();
  EXPECT_TRUE(finds_twice(d, "own"));
}

TEST_F(UserDebuginfo, SeparateByBuildId) {
  // as Debian's -dbgsym packages: /usr/lib/debug/.build-id/XX/YYYY.debug
  build("byid", "id=$(readelf -n $P | sed -n 's/.*Build ID: //p') && "
                "mkdir -p ../lib/debug/.build-id/$(echo $id | cut -c1-2) && "
                "objcopy --only-keep-debug $P ../lib/debug/.build-id/$(echo $id | cut -c1-2)/"
                "$(echo $id | cut -c3-).debug && strip -g $P");
  auto d = sysroot();
  EXPECT_TRUE(finds_twice(d, "byid"));
}

TEST_F(UserDebuginfo, SeparateByDebuglinkBesideAndUnderUsrLibDebug) {
  build("beside", "mkdir -p .debug && objcopy --only-keep-debug $P .debug/$P.dbg && "
                  "strip -g $P && objcopy --add-gnu-debuglink=.debug/$P.dbg $P && "
                  "objcopy --remove-section=.note.gnu.build-id $P");
  build("under", "mkdir -p ../lib/debug/usr/bin && objcopy --only-keep-debug $P "
                 "../lib/debug/usr/bin/$P.debug && strip -g $P && "
                 "objcopy --remove-section=.note.gnu.build-id $P");
  auto d = sysroot();
  EXPECT_TRUE(finds_twice(d, "beside"));
  EXPECT_TRUE(finds_twice(d, "under")); // /usr/lib/debug/PATH.debug
}

TEST_F(UserDebuginfo, NoneSaysWhatToInstall) {
  build("bare", "strip -g $P");
  // a debug file of another build is not this program's
  build("other", "", "-O1"); // another build-id
  ASSERT_EQ(std::system(("mkdir -p '" + root_ + "/usr/lib/debug/usr/bin' && objcopy "
                         "--only-keep-debug '" + root_ + "/usr/bin/other' '" + root_ +
                         "/usr/lib/debug/usr/bin/bare.debug'").c_str()),
            0);
  auto d = sysroot();
  std::string why;
  EXPECT_EQ(d.object("/usr/bin/bare", root_ + "/usr/bin/bare", why), nullptr);
  EXPECT_EQ(why, "'/usr/bin/bare' has no DWARF debuginfo, and /usr/lib/debug has none for it: "
                 "install its debug symbols (on Debian the -dbgsym or -dbg package of the "
                 "package that ships it) or build it with -g");
}

} // namespace
