#include "util/diag.h"

#include <gtest/gtest.h>
#include <sstream>

using namespace stap;

TEST(Diagnostics, ErrorShowsFileLineColumnSourceLineAndCaret) {
  SourceFile f("t.stp", "probe begin {\n  printf(\"x\" 1)\n}\n");
  SourceLoc loc{&f, 2, 14};
  EXPECT_EQ(format_diagnostic(Severity::Error, loc, "expected ')' before number"),
            "t.stp:2:14: error: expected ')' before number\n"
            "      printf(\"x\" 1)\n"
            "                 ^\n");
}

TEST(Diagnostics, WarningsCanBeSuppressedOrMadeFatal) {
  std::ostringstream out;
  Diagnostics d(out);
  d.set_suppress_warnings(true);
  d.warning(SourceLoc{}, "unused");
  EXPECT_EQ(out.str(), "");
  d.set_suppress_warnings(false);
  d.set_warnings_fatal(true);
  d.warning(SourceLoc{}, "unused");
  EXPECT_EQ(d.errors(), 1u);
  EXPECT_EQ(out.str(), "error: unused\n");
}

TEST(SourceFile, LineColumnOfOffsets) {
  SourceFile f("t", "ab\ncd\n");
  EXPECT_EQ(f.line_col(0), std::make_pair(1u, 1u));
  EXPECT_EQ(f.line_col(4), std::make_pair(2u, 2u));
  EXPECT_EQ(f.line_text(2), "cd");
}
