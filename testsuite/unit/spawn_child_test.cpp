// util/spawn_child: the fork-and-exec shape of the VM runner and the ssh
// transport, on real programs.
#include "util/spawn_child.h"

#include <fcntl.h>
#include <gtest/gtest.h>
#include <unistd.h>

using namespace stap;

TEST(SpawnChild, CapturesStdoutAndStderrApartWithTheStatus) {
  std::string out, err;
  int rc = run_child_captured({"sh", "-c", "echo out; echo err >&2; exit 3"}, 0, out, err);
  EXPECT_EQ(rc, 3);
  EXPECT_EQ(out, "out\n");
  EXPECT_EQ(err, "err\n");
}

// Both pipes are read together: a child that fills its stderr pipe (64 kB)
// before writing stdout does not hang.
TEST(SpawnChild, AFullStderrPipeDoesNotBlock) {
  std::string out, err;
  int rc = run_child_captured(
      {"sh", "-c", "head -c 300000 /dev/zero >&2; echo done"}, 0, out, err);
  EXPECT_EQ(rc, 0);
  EXPECT_EQ(out, "done\n");
  EXPECT_EQ(err.size(), 300000u);
}

TEST(SpawnChild, AMissingProgramExits127SayingWhy) {
  std::string out, err;
  EXPECT_EQ(run_child_captured({"/nonexistent/prog"}, 0, out, err), 127);
  EXPECT_EQ(err, "cannot run /nonexistent/prog: No such file or directory\n");
}

TEST(SpawnChild, StdinIsDevNull) {
  std::string out, err;
  EXPECT_EQ(run_child_captured({"sh", "-c", "cat; echo end"}, 0, out, err), 0);
  EXPECT_EQ(out, "end\n");
}

TEST(SpawnChild, OwnProcessGroup) {
  const char *same = "set -- $(cat /proc/$$/stat); [ $1 = $5 ] && echo own || echo shared";
  std::string out, err;
  run_child_captured({"sh", "-c", same}, kChildOwnGroup, out, err);
  EXPECT_EQ(out, "own\n");
  out.clear();
  run_child_captured({"sh", "-c", same}, 0, out, err);
  EXPECT_EQ(out, "shared\n");
}

// The VM runner's shape: output to a file, the child outlives nothing.
TEST(SpawnChild, OutputToAFile) {
  char path[] = "/tmp/spawn_child_test.XXXXXX";
  int fd = mkstemp(path);
  ASSERT_GE(fd, 0);
  ChildFiles files;
  files.out = files.err = fd;
  pid_t pid = spawn_child({"sh", "-c", "echo to-file; echo also >&2"}, files, kChildDiesWithParent);
  close(fd);
  ASSERT_GT(pid, 0);
  EXPECT_EQ(wait_child(pid), 0);
  char buf[64] = {};
  int in = open(path, O_RDONLY);
  ASSERT_GE(in, 0);
  EXPECT_EQ(read(in, buf, sizeof buf - 1), 13);
  close(in);
  unlink(path);
  EXPECT_STREQ(buf, "to-file\nalso\n");
}
