// printf formats: what the translator accepts, and the kernel format it emits.
#include "codegen/format.h"

#include <gtest/gtest.h>

using namespace stap;
using namespace stap::codegen;

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
  EXPECT_EQ(k.casts, (std::vector<std::string>{"(long long)", "(unsigned long long)", "(int)",
                                               "", ""}));
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
