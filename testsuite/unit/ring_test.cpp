// The runtime's per-CPU output ring, compiled for the host.
extern "C" {
#include "../../runtime/transport/ring.h"
}

#include <gtest/gtest.h>
#include <string>
#include <vector>

namespace {

struct Ring {
  std::vector<char> mem;
  stp_ring r{};
  explicit Ring(u32 size) : mem(size) { stp_ring_init(&r, mem.data(), size); }

  std::string take() {
    stp_ring_hdr h;
    if (!stp_ring_peek(&r, &h))
      return "<empty>";
    std::string s(h.len, '\0');
    stp_ring_copy_out(&r, stp_ring_payload_pos(&r), s.data(), h.len);
    stp_ring_consume(&r, &h);
    return s;
  }
};

} // namespace

TEST(Ring, RecordsComeOutWholeAndInOrder) {
  Ring ring(256);
  EXPECT_EQ(stp_ring_write(&ring.r, 1, "hello", 5), 0);
  EXPECT_EQ(stp_ring_write(&ring.r, 2, "world", 5), 0);
  EXPECT_EQ(ring.take(), "hello");
  EXPECT_EQ(ring.take(), "world");
  EXPECT_EQ(ring.take(), "<empty>");
}

TEST(Ring, RecordsWrapAroundTheEnd) {
  Ring ring(64);
  std::string a(30, 'a'), b(30, 'b');
  for (int round = 0; round < 10; ++round) {
    ASSERT_EQ(stp_ring_write(&ring.r, round, a.data(), 30), 0);
    EXPECT_EQ(ring.take(), a);
    ASSERT_EQ(stp_ring_write(&ring.r, round, b.data(), 30), 0);
    EXPECT_EQ(ring.take(), b);
  }
}

TEST(Ring, AFullRingDropsWholeRecordsAndCountsThem) {
  Ring ring(64); // header 16 bytes: two 10-byte records fit, a third does not
  std::string x(10, 'x');
  EXPECT_EQ(stp_ring_write(&ring.r, 1, x.data(), 10), 0);
  EXPECT_EQ(stp_ring_write(&ring.r, 2, x.data(), 10), 0);
  EXPECT_EQ(stp_ring_write(&ring.r, 3, x.data(), 30), -1);
  EXPECT_EQ(ring.r.dropped_bytes, 30u);
  EXPECT_EQ(ring.r.dropped_records, 1u);
  EXPECT_EQ(ring.take(), x);
  EXPECT_EQ(ring.take(), x);
  EXPECT_EQ(ring.take(), "<empty>");
}

TEST(Ring, PickMergesCpusBySequenceNumber) {
  Ring cpu0(256), cpu1(256);
  stp_ring_write(&cpu0.r, 1, "a", 1);
  stp_ring_write(&cpu1.r, 2, "b", 1);
  stp_ring_write(&cpu0.r, 3, "c", 1);
  stp_ring_write(&cpu1.r, 4, "d", 1);
  stp_ring *rings[] = {&cpu0.r, nullptr, &cpu1.r};
  std::string merged;
  stp_ring_hdr h;
  for (int i; (i = stp_ring_pick(rings, 3, &h)) >= 0;)
    merged += i == 0 ? cpu0.take() : cpu1.take();
  EXPECT_EQ(merged, "abcd");
}
