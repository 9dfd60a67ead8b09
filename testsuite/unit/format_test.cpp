// printf formats: what the translator accepts, and the kernel format it emits.
#include "codegen/format.h"

#include <gtest/gtest.h>

using namespace stap;
using namespace stap::codegen;
using namespace stap::lang;

static KernelFormat convert(const std::string &fmt) {
  std::string err;
  auto p = parse_format(fmt, err);
  EXPECT_TRUE(p) << err;
  return p ? kernel_format(*p) : KernelFormat{};
}

TEST(Format, NumbersAreSixtyFourBit) {
  auto k = convert("hello %d\n");
  EXPECT_EQ(k.format, "hello %lld\n");
  EXPECT_EQ(k.casts, std::vector<std::string>{"(long long)"});
}

TEST(Format, FlagsWidthPrecisionAndStars) {
  auto k = convert("%-5d|%05x|%*s|%.3s|%%");
  EXPECT_EQ(k.format, "%-5lld|%05llx|%*s|%.3s|%%");
  EXPECT_EQ(k.casts, (std::vector<std::string>{"(long long)", "(unsigned long long)",
                                               "stp_fmt_width", "", ""}));
}

TEST(Format, ArgumentTypesIncludeStarWidths) {
  std::string err;
  auto p = parse_format("%*d %s %c", err);
  ASSERT_TRUE(p);
  EXPECT_EQ(p->arg_types, (std::vector<ast::Type>{ast::Type::Long, ast::Type::Long,
                                                  ast::Type::String, ast::Type::Long}));
}

TEST(Format, LengthModifiersAreIgnored) { EXPECT_EQ(convert("%ld %llu").format, "%lld %llu"); }

TEST(Format, RejectsUnknownAndIncompleteConversions) {
  std::string err;
  EXPECT_FALSE(parse_format("%q", err));
  EXPECT_EQ(err, "invalid conversion '%q' in format");
  EXPECT_FALSE(parse_format("50%", err));
  EXPECT_EQ(err, "incomplete conversion at the end of the format");
}

TEST(Format, SpecialConversionsAreCutOut) {
  std::string err;
  auto p = parse_format("a %d %p b %*.*m %s%#c|%c", err);
  ASSERT_TRUE(p) << err;
  auto chunks = format_chunks(*p);
  ASSERT_EQ(chunks.size(), 7u); // ... and "|%c"
  EXPECT_FALSE(chunks[0].special);
  EXPECT_EQ(chunks[0].kernel.format, "a %lld ");
  EXPECT_EQ(chunks[0].n_args, 1u);
  EXPECT_TRUE(chunks[1].special);
  EXPECT_EQ(chunks[1].conv.conv, 'p');
  EXPECT_EQ(chunks[1].first_arg, 1u);
  EXPECT_EQ(chunks[2].kernel.format, " b ");
  EXPECT_EQ(chunks[2].n_args, 0u);
  EXPECT_EQ(chunks[3].conv.conv, 'm');
  EXPECT_EQ(chunks[3].first_arg, 2u);
  EXPECT_EQ(chunks[3].n_args, 3u); // width, precision, address
  EXPECT_EQ(chunks[4].kernel.format, " %s");
  EXPECT_EQ(chunks[4].first_arg, 5u);
  EXPECT_TRUE(chunks[5].special); // %#c
  EXPECT_EQ(chunks[5].first_arg, 6u);
  EXPECT_EQ(chunks[6].kernel.format, "|%c");
  EXPECT_EQ(p->arg_types.size(), 8u);
}

TEST(Format, OrdinaryFormatsStayOneChunk) {
  std::string err;
  auto p = parse_format("%d %s %c %x\n", err);
  ASSERT_TRUE(p);
  auto chunks = format_chunks(*p);
  ASSERT_EQ(chunks.size(), 1u);
  EXPECT_EQ(chunks[0].n_args, 4u);
}

TEST(Format, BinaryWidthIsAByteCount) {
  std::string err;
  EXPECT_TRUE(parse_format("%b %1b %2b %4b %8b", err));
  EXPECT_FALSE(parse_format("%3b", err));
  EXPECT_EQ(err, "invalid width '3' for '%b' (1, 2, 4 or 8 bytes)");
}

TEST(Format, CallPrintsChunksInOrder) {
  std::string err;
  auto p = parse_format("x=%d %p\n", err);
  ASSERT_TRUE(p);
  EXPECT_EQ(format_call(*p, {"a", "b"}, ""),
            "({ stp_out_printf(c, NULL, \"x=%lld \", (long long)(a)); "
            "stp_out_special(c, NULL, 'p', \"\", -1, -1, b); "
            "stp_out_printf(c, NULL, \"\\n\"); (s64)0; })");
  EXPECT_EQ(format_call(*p, {"a", "b"}, "buf").substr(0, 22), "({ buf[0] = '\\0'; stp_");
}

// A NUL in a format (a script can write "\000") is literal text, never a
// flag or a length modifier (the format fuzzer found both).
TEST(Format, NulIsNeitherFlagNorModifier) {
  std::string err;
  EXPECT_FALSE(parse_format(std::string("%\0d", 3), err));
  EXPECT_EQ(err, std::string("invalid conversion '%") + '\0' + "' in format");
  EXPECT_FALSE(parse_format(std::string("%5\0d", 4), err));
}

// Widths and precisions past what the kernel's vsnprintf keeps (23 and 15
// bits) are clamped, never passed on truncated; `*` ones go through the
// runtime's clamps (SystemTap 4.8 writes them out cut to 32 bits).
TEST(Format, HugeWidthsAndPrecisionsAreClamped) {
  EXPECT_EQ(convert("%99999999999999999999d|%.9999999s|%08388607x").format,
            "%8388607lld|%.32767s|%08388607llx");
  EXPECT_EQ(convert("%*.*d").casts,
            (std::vector<std::string>{"stp_fmt_width", "stp_fmt_precision", "(long long)"}));
  std::string err;
  auto p = parse_format("%*p", err);
  ASSERT_TRUE(p);
  EXPECT_EQ(format_call(*p, {"w", "v"}, ""),
            "({ stp_out_special(c, NULL, 'p', \"\", stp_fmt_width(w), -1, v); (s64)0; })");
}
