// dwarf/function_pattern: which functions and source lines a DWARF probe
// point's pattern names (shared by kernel and user DWARF probes).
#include "dwarf/function_pattern.h"

#include <gtest/gtest.h>

using namespace stap;

namespace {

dwarf::FunctionPattern parse(const std::string &text) {
  std::string err;
  auto p = dwarf::parse_function_pattern(text, err);
  EXPECT_TRUE(p) << text << ": " << err;
  return p.value_or(dwarf::FunctionPattern{});
}

TEST(FunctionPattern, FunctionDeclaredOnItsLines) {
  EXPECT_TRUE(dwarf::declared_on(parse("f"), 12));
  EXPECT_TRUE(dwarf::declared_on(parse("f@x.c"), 12));
  EXPECT_TRUE(dwarf::declared_on(parse("f@x.c:12"), 12));
  EXPECT_FALSE(dwarf::declared_on(parse("f@x.c:13"), 12));
  EXPECT_TRUE(dwarf::declared_on(parse("f@x.c:10-12"), 12));
  EXPECT_FALSE(dwarf::declared_on(parse("f@x.c:13-20"), 12));
  EXPECT_TRUE(dwarf::declared_on(parse("f@x.c:*"), 12));
  EXPECT_TRUE(dwarf::declared_on(parse("f@x.c+3"), 12));
}

TEST(FunctionPattern, StatementLines) {
  auto lines = [](const std::string &text, int64_t decl) {
    auto r = dwarf::statement_lines(parse(text), decl);
    return std::to_string(r.first) + "-" + std::to_string(r.last);
  };
  EXPECT_EQ(lines("f@x.c:15", 12), "15-15");
  EXPECT_EQ(lines("f@x.c:15-18", 12), "15-18");
  EXPECT_EQ(lines("f@x.c+3", 12), "15-15");
  EXPECT_EQ(lines("f@x.c:*", 12), "12-" + std::to_string(INT32_MAX));
  EXPECT_EQ(lines("f", 12), "12-" + std::to_string(INT32_MAX));
}

} // namespace
