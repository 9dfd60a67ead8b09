// The files a target sees (driver/sysroot.h, remote/guest_view.h), on
// scratch trees: a "host" root and an "i386" root with a dpkg database.
#include "driver/sysroot.h"
#include "remote/guest_view.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <sys/stat.h>
#include <unistd.h>

using namespace stap;
namespace fs = std::filesystem;

namespace {

class Trees : public ::testing::Test {
protected:
  void SetUp() override {
    char templ[] = "/tmp/sysroot-test-XXXXXX";
    top_ = mkdtemp(templ);
    host_ = top_ + "/host";
    i386_ = top_ + "/i386";
    // The host: merged /usr, temporary directories, user directories.
    dir(host_ + "/usr/bin");
    file(host_ + "/usr/bin/ls", "host ls");
    link("usr/bin", host_ + "/bin");
    file(host_ + "/usr/lib64/ld.so", "host loader");
    link("usr/lib64", host_ + "/lib64");
    dir(host_ + "/usr/src/linux");
    dir(host_ + "/tmp/x");
    chmod((host_ + "/tmp").c_str(), 01777);
    file(host_ + "/tmp/x/prog", "host prog");
    link("/bin/ls", host_ + "/tmp/x/ls_link");
    link("loop_b", host_ + "/tmp/x/loop_a");
    link("loop_a", host_ + "/tmp/x/loop_b");
    dir(host_ + "/var/lib/host_only");
    dir(host_ + "/var/tmp");
    dir(host_ + "/var/spool/cron"); // listed, but the i386 root has no /var/spool
    chmod((host_ + "/var/tmp").c_str(), 01777);
    file(host_ + "/work/proj/a.out", "host a.out");
    file(host_ + "/root/.bashrc", "host bashrc");
    file(host_ + "/etc/passwd", "host passwd");
    dir(host_ + "/etc/ssh");
    dir(host_ + "/proc/1");
    file(host_ + "/boot/vmlinuz-1", "host kernel");
    link("boot/vmlinuz-1", host_ + "/vmlinuz");
    file(host_ + "/notes.txt", "a file at level 1");
    // The i386 root, as debootstrap leaves it.
    file(i386_ + "/usr/bin/ls", "i386 ls");
    link("usr/bin", i386_ + "/bin");
    file(i386_ + "/usr/lib/i386-linux-gnu/libc.so.6", "i386 libc");
    link("usr/lib", i386_ + "/lib");
    file(i386_ + "/etc/passwd", "i386 passwd");
    file(i386_ + "/etc/ld.so.cache", "i386 cache");
    file(i386_ + "/root/.bashrc", "i386 bashrc");
    dir(i386_ + "/tmp");
    dir(i386_ + "/var/tmp");
    dir(i386_ + "/usr/src");
    dir(i386_ + "/proc");
    std::string info = i386_ + "/var/lib/dpkg/info";
    file(info + "/base-files.list",
         "/.\n/etc\n/etc/issue\n/home\n/root\n/tmp\n/usr\n/usr/src\n/var\n/var/tmp\n"
         "/var/lib\n/var/lib/misc\n/var/lib/misc/x\n/var/spool\n");
    file(info + "/coreutils.list", "/.\n/bin\n/bin/ls\n/usr/bin\n/usr/bin/ls\n");
    file(info + "/libc6:i386.list", "/.\n/usr/lib/i386-linux-gnu\n/usr/lib/i386-linux-gnu/libc.so.6\n");
    file(info + "/libc6:i386.md5sums", "/not/a/list/file\n");
  }
  void TearDown() override { fs::remove_all(top_); }

  static void dir(const std::string &p) { fs::create_directories(p); }
  static void file(const std::string &p, const std::string &text) {
    dir(fs::path(p).parent_path());
    std::ofstream(p) << text;
  }
  static void link(const std::string &target, const std::string &p) {
    dir(fs::path(p).parent_path());
    fs::create_symlink(target, p);
  }
  static std::string read(const std::string &p) {
    std::ifstream in(p);
    return std::string(std::istreambuf_iterator<char>(in), {});
  }
  // What the i686 guest sees at `path`: the text of the file, or "-".
  std::string guest(const std::string &path) const {
    auto f = Sysroot::i686_guest(i386_, host_).resolve(path);
    return f ? read(f->host_path) : "-";
  }

  std::string top_, host_, i386_;
};

TEST_F(Trees, SystemDirectoriesComeFromTheDpkgLists) {
  auto dirs = remote::read_system_dirs(i386_);
  // Something installed below them.
  for (const char *d : {"/bin", "/usr", "/usr/bin", "/usr/lib", "/etc", "/var", "/var/lib"})
    EXPECT_EQ(dirs.count(d), 1u) << d;
  // Only the directory itself, or nothing.
  for (const char *d : {"/tmp", "/home", "/root", "/usr/src", "/var/tmp", "/var/spool", "/.", "/not"})
    EXPECT_EQ(dirs.count(d), 0u) << d;
}

TEST_F(Trees, SystemPathsAreTheI386Roots) {
  EXPECT_EQ(guest("/bin/ls"), "i386 ls");
  EXPECT_EQ(guest("/usr/bin/ls"), "i386 ls");
  EXPECT_EQ(guest("/lib/i386-linux-gnu/libc.so.6"), "i386 libc");
  EXPECT_EQ(guest("/etc/passwd"), "i386 passwd"); // a file at level 2 in a system dir
  EXPECT_EQ(guest("/etc/ld.so.cache"), "i386 cache");
  EXPECT_EQ(guest("/var/lib/host_only"), "-");    // level 2, system: the i386 root has none
  // Level 2 in a system directory, not a place the i386 root leaves empty:
  EXPECT_EQ(guest("/lib64/ld.so"), "-");          // the host's link, to /usr/lib64: none
  EXPECT_EQ(guest("/etc/ssh"), "-");
  EXPECT_EQ(guest("/var/spool/cron"), "-");
}

TEST_F(Trees, OtherPathsAreTheHosts) {
  EXPECT_EQ(guest("/tmp/x/prog"), "host prog");
  EXPECT_EQ(guest("/work/proj/a.out"), "host a.out");
  EXPECT_EQ(guest("/root/.bashrc"), "host bashrc");
  EXPECT_EQ(guest("/host/usr/bin/ls"), "host ls"); // the whole host at /host
  EXPECT_EQ(guest("/vmlinuz"), "host kernel");
  auto src = Sysroot::i686_guest(i386_, host_).resolve("/usr/src/linux");
  ASSERT_TRUE(src);
  EXPECT_EQ(src->host_path, host_ + "/usr/src/linux");
  auto vartmp = Sysroot::i686_guest(i386_, host_).resolve("/var/tmp");
  ASSERT_TRUE(vartmp);
  EXPECT_EQ(vartmp->host_path, host_ + "/var/tmp");
}

TEST_F(Trees, SymlinksResolveInTheGuest) {
  auto f = Sysroot::i686_guest(i386_, host_).resolve("/tmp/x/ls_link");
  ASSERT_TRUE(f);
  EXPECT_EQ(f->target_path, "/usr/bin/ls"); // a host link to /bin/ls: the i386 ls
  EXPECT_EQ(f->host_path, i386_ + "/usr/bin/ls");
  EXPECT_EQ(guest("/tmp/../bin/./ls"), "i386 ls");
  EXPECT_EQ(guest("/tmp/x/ls_link/../prog"), "-"); // ls is not a directory
}

TEST_F(Trees, TheTargetsErrorsAreNothing) {
  EXPECT_EQ(guest("/no/such/file"), "-");
  EXPECT_EQ(guest("/tmp/x/prog/.."), "-");
  EXPECT_EQ(guest("/tmp/x/loop_a"), "-");
  EXPECT_EQ(guest("/proc/1"), "-"); // the guest's own proc
  EXPECT_EQ(guest("/notes.txt"), "-"); // a host file at level 1 is not shown
  EXPECT_EQ(guest(""), "-");
}

TEST_F(Trees, I686MountPlan) {
  std::string plan = remote::mount_plan_text(remote::GuestView(host_, i386_).mount_plan());
  EXPECT_EQ(plan,
            "bind /boot\n"
            "link /lib64 usr/lib64\n"
            "bind /root\n"
            "overlay /tmp\n"
            "link /vmlinuz boot/vmlinuz-1\n"
            "bind /work\n"
            "bind /usr/src\n"
            "overlay /var/tmp\n");
}

TEST_F(Trees, X86_64GuestOnlyNeedsWritableTemporaryDirectories) {
  remote::GuestView view(host_);
  EXPECT_TRUE(view.host_is_root());
  EXPECT_EQ(remote::mount_plan_text(view.mount_plan()), "overlay /tmp\noverlay /var/tmp\n");
  EXPECT_EQ(view.host_file("/bin/ls"), host_ + "/bin/ls");
}

TEST_F(Trees, SysrootDirectoryKeepsAbsoluteLinksInside) {
  Sysroot s = Sysroot::directory(i386_ + "/");
  auto f = s.resolve("/bin/ls");
  ASSERT_TRUE(f);
  EXPECT_EQ(f->target_path, "/usr/bin/ls");
  EXPECT_EQ(f->host_path, i386_ + "/usr/bin/ls");
  EXPECT_EQ(s.host_path("/tmp/x/prog"), ""); // not in the sysroot
  EXPECT_EQ(s.description(), "--sysroot=" + i386_);
}

TEST_F(Trees, HostSysrootResolvesRelativePathsFromTheWorkingDirectory) {
  std::string old = fs::current_path();
  fs::current_path(host_ + "/tmp");
  auto f = Sysroot().resolve("x/prog");
  fs::current_path(old);
  ASSERT_TRUE(f);
  EXPECT_EQ(f->host_path, host_ + "/tmp/x/prog");
  EXPECT_EQ(f->target_path, f->host_path);
  EXPECT_TRUE(Sysroot().description().empty());
}

} // namespace
