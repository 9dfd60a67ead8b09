// The progress line: on a terminal, rewritten with \r and erased at the
// end; nothing at all on a pipe, or when the work ends before the delay.
#include "util/progress_line.h"

#include <fcntl.h>
#include <gtest/gtest.h>
#include <pty.h>
#include <thread>
#include <unistd.h>

namespace stap {
namespace {

std::string drain(int fd) {
  fcntl(fd, F_SETFL, O_NONBLOCK);
  std::string s;
  char buf[4096];
  ssize_t n;
  while ((n = read(fd, buf, sizeof buf)) > 0)
    s.append(buf, n);
  return s;
}

TEST(ProgressLine, OnATerminalTheLineIsRewrittenThenErased) {
  int master, slave;
  ASSERT_EQ(openpty(&master, &slave, nullptr, nullptr, nullptr), 0);
  {
    ProgressLine p("compiling 3 headers", 0, slave);
    EXPECT_TRUE(p.active());
    std::this_thread::sleep_for(std::chrono::milliseconds(200));
    p.set("2/3 sched.h");
  }
  std::string out = drain(master);
  EXPECT_EQ(out.rfind("\rstap: compiling 3 headers ... 0 s\033[K", 0), 0u) << out;
  EXPECT_NE(out.find("\rstap: compiling 3 headers: 2/3 sched.h ... 0 s\033[K"),
            std::string::npos)
      << out;
  EXPECT_EQ(out.substr(out.size() - 4), "\r\033[K") << out;
  close(master);
  close(slave);
}

TEST(ProgressLine, QuickWorkShowsNothing) {
  int master, slave;
  ASSERT_EQ(openpty(&master, &slave, nullptr, nullptr, nullptr), 0);
  { ProgressLine p("reading symbols", 1000, slave); }
  EXPECT_EQ(drain(master), "");
  close(master);
  close(slave);
}

TEST(ProgressLine, NotATerminalNothingIsWritten) {
  int fds[2];
  ASSERT_EQ(pipe(fds), 0);
  {
    ProgressLine p("building the i386 root", 0, fds[1]);
    EXPECT_FALSE(p.active());
    p.set("debootstrap");
    std::this_thread::sleep_for(std::chrono::milliseconds(100));
  }
  close(fds[1]);
  EXPECT_EQ(drain(fds[0]), "");
  close(fds[0]);
}

} // namespace
} // namespace stap
