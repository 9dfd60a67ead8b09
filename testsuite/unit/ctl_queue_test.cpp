// The runtime's control-message queue (kernel to staprun), compiled for the
// host: a flood of messages loses text, never "exit" or the final figures.
extern "C" {
#include "../../runtime/transport/ctl_queue.h"
}

#include <gtest/gtest.h>
#include <cstdio>
#include <memory>
#include <string>

namespace {

struct Queue {
  std::unique_ptr<stp_ctl_queue> q = std::make_unique<stp_ctl_queue>();

  bool send(const std::string &msg) {
    int n = std::snprintf(stp_ctlq_tail(q.get()), stp_ctlq_room(q.get()), "%s", msg.c_str());
    return stp_ctlq_commit(q.get(), n) != 0;
  }
  void set_final(const std::string &text) { stp_ctlq_set_final(q.get(), text.data(), text.size()); }
  // What a reader with a `cap`-byte buffer gets in one read.
  std::string read(unsigned cap, bool exit_requested = false) {
    std::string buf(cap, '\0');
    buf.resize(stp_ctlq_take(q.get(), buf.data(), cap, exit_requested));
    return buf;
  }
  // Everything, read `cap` bytes at a time, as staprun does until EAGAIN.
  std::string drain(unsigned cap, bool exit_requested = false) {
    std::string all, got;
    while (!(got = read(cap, exit_requested)).empty())
      all += got;
    return all;
  }
};

size_t count(const std::string &s, const std::string &what) {
  size_t n = 0;
  for (size_t p = s.find(what); p != std::string::npos; p = s.find(what, p + 1))
    n++;
  return n;
}

} // namespace

TEST(CtlQueue, MessagesComeOutAsLinesInOrder) {
  Queue q;
  EXPECT_TRUE(q.send("error one"));
  EXPECT_TRUE(q.send("warning two"));
  EXPECT_TRUE(stp_ctlq_pending(q.q.get(), 0));
  EXPECT_EQ(q.read(4096), "error one\nwarning two\n");
  EXPECT_FALSE(stp_ctlq_pending(q.q.get(), 0));
  EXPECT_EQ(q.read(4096), "");
}

// The bug the storm found: a queue holding more than one read's worth was
// never handed over at all, so nothing more (not even the final figures)
// ever reached staprun. Now a small reader gets it all, in pieces.
TEST(CtlQueue, AReaderWithASmallBufferGetsEverything) {
  Queue q;
  std::string expected;
  for (int i = 0; i < 100; i++) {
    std::string msg = "error message number " + std::to_string(i);
    ASSERT_TRUE(q.send(msg));
    expected += msg + "\n";
  }
  q.set_final("stats errors 100 skipped 0\n");
  EXPECT_EQ(q.drain(7), expected + "stats errors 100 skipped 0\n");
}

TEST(CtlQueue, AFloodLosesTextButCountsIt) {
  Queue q;
  int kept = 0;
  for (int i = 0; i < 10000; i++)
    kept += q.send("error array full near storm.stp:18:3");
  EXPECT_GT(kept, 0);
  EXPECT_LT(kept, 10000);
  EXPECT_EQ(q.q->lost, 10000u - kept);
  std::string all = q.drain(512);
  EXPECT_EQ(count(all, "error array full"), static_cast<size_t>(kept));
}

TEST(CtlQueue, FinalFiguresArriveAfterAFullQueue) {
  Queue q;
  while (q.send("error array full near storm.stp:18:3")) {
  }
  const std::string figures = "drops 10 2\nstats errors 103112 skipped 8740\n";
  q.set_final(figures);
  std::string all = q.drain(512);
  ASSERT_GT(all.size(), figures.size());
  EXPECT_EQ(all.substr(all.size() - figures.size()), figures);
  EXPECT_EQ(all.substr(0, all.size() - figures.size()).find("stats"), std::string::npos);
  EXPECT_FALSE(stp_ctlq_pending(q.q.get(), 0));
}

TEST(CtlQueue, FinalFiguresReachAReaderOfAnySize) {
  Queue q;
  q.set_final("stats errors 1 skipped 0\n");
  EXPECT_TRUE(stp_ctlq_pending(q.q.get(), 0));
  EXPECT_EQ(q.drain(3), "stats errors 1 skipped 0\n");
  EXPECT_FALSE(stp_ctlq_pending(q.q.get(), 0));
}

TEST(CtlQueue, ExitIsNeverLostAndNeverSplitsALine) {
  Queue q;
  while (q.send("warning x")) {
  }
  // The reader took part of a line: "exit" waits for the line's end.
  std::string first = q.read(3, true);
  EXPECT_EQ(first, "war");
  std::string rest = q.drain(64, true);
  std::string all = first + rest;
  EXPECT_EQ(count(all, "exit\n"), 1u);
  size_t at = all.find("exit\n");
  EXPECT_TRUE(at == 0 || all[at - 1] == '\n');
  EXPECT_EQ(count(all, "warning x\n") * 10 + 5, all.size());
}

TEST(CtlQueue, ExitComesFirstWhenAtALineBoundary) {
  Queue q;
  q.send("error e");
  EXPECT_EQ(q.read(100, true), "exit\nerror e\n");
  EXPECT_FALSE(stp_ctlq_pending(q.q.get(), 1));
}

TEST(CtlQueue, FinalFiguresKeepWholeLinesOnly) {
  Queue q;
  std::string text = std::string(200, 'a') + "\n" + std::string(100, 'b') + "\n";
  q.set_final(text);
  EXPECT_EQ(q.read(4096), std::string(200, 'a') + "\n");
}
