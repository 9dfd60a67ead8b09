#include "codegen/emitter.h"

#include <gtest/gtest.h>

using namespace stap;
using namespace stap::codegen;

TEST(Emitter, BlocksIndentAndLineDirectivesPointAtTheScript) {
  SourceFile f("t.stp", "probe begin {}\n");
  Emitter e;
  e.open("static void f(void)");
  e.line_directive(SourceLoc{&f, 1, 13});
  e.line("x();");
  e.close();
  EXPECT_EQ(e.str(), "static void f(void) {\n#line 1 \"t.stp\"\n\tx();\n}\n");
}

TEST(Emitter, CommentsCannotBeClosedByTheirText) {
  Emitter e;
  e.comment("a */ b");
  EXPECT_EQ(e.str(), "/* a * / b */\n");
}

TEST(CStringLiteral, EscapesQuotesControlCharactersAndTrigraphs) {
  EXPECT_EQ(c_string_literal("a\"b\\c\n"), "\"a\\\"b\\\\c\\n\"");
  EXPECT_EQ(c_string_literal(std::string("\x01", 1)), "\"\\001\"");
  EXPECT_EQ(c_string_literal("?" "?="), "\"?\\?=\"");
}
