// Lexical rules: comments, numbers, strings, characters the language lacks.
#include "parse_test_helpers.h"

namespace stap::parse_test {
namespace {

TEST(ParseLexer, AllThreeCommentStylesAreSkipped) {
  EXPECT_EQ(body("# shell style\nx = 1 // C++ style\n/* C style,\n two lines */ y = 2"),
            "x = 1;\ny = 2;");
}

TEST(ParseLexer, UnterminatedBlockCommentIsAnError) {
  EXPECT_EQ(first_error("probe begin { } /* no end"),
            "<input>:1:17: error: unterminated comment");
}

TEST(ParseLexer, DecimalHexAndOctalNumbersKeepTheirSpelling) {
  Parsed p = parse_text("global a = 42, b = 0x2A, c = 052");
  ASSERT_EQ(p.errors, "");
  ASSERT_EQ(p.file->globals.size(), 3u);
  for (auto *g : p.file->globals)
    EXPECT_EQ(static_cast<ast::NumberLit *>(g->init)->value, 42) << g->name;
  EXPECT_EQ(p.printed, "global a = 42\nglobal b = 0x2A\nglobal c = 052\n");
}

TEST(ParseLexer, NumbersAboveInt64MaxWrapToNegative) {
  Parsed p = parse_text("global x = 18446744073709551615, y = 9223372036854775808");
  ASSERT_EQ(p.errors, "");
  EXPECT_EQ(static_cast<ast::NumberLit *>(p.file->globals[0]->init)->value, -1);
  EXPECT_EQ(static_cast<ast::NumberLit *>(p.file->globals[1]->init)->value, INT64_MIN);
}

TEST(ParseLexer, NumbersBeyond64BitsAndBadDigitsAreRejected) {
  EXPECT_EQ(first_error("global x = 18446744073709551616"),
            "<input>:1:12: error: invalid number '18446744073709551616' (does not fit in 64 bits)");
  EXPECT_EQ(first_error("global x = 09"), "<input>:1:12: error: invalid number '09'");
  EXPECT_EQ(first_error("global x = 12abc"), "<input>:1:12: error: invalid number '12abc'");
}

TEST(ParseLexer, StringEscapesAreProcessedAndPrintedBack) {
  Parsed p = parse_text(R"(global s = "tab\there\nquote\" back\\ oct\101 hex\x42")");
  ASSERT_EQ(p.errors, "");
  EXPECT_EQ(static_cast<ast::StringLit *>(p.file->globals[0]->init)->value,
            "tab\there\nquote\" back\\ octA hexB");
  EXPECT_EQ(p.printed, R"(global s = "tab\there\nquote\" back\\ octA hexB")" "\n");
}

TEST(ParseLexer, UnknownEscapesKeepTheirBackslashForRegularExpressions) {
  EXPECT_EQ(body(R"(x = s =~ "a\.c")"), R"(x = s =~ "a\\.c";)");
}

TEST(ParseLexer, AdjacentStringLiteralsAreConcatenated) {
  EXPECT_EQ(body(R"(print("a" "b"
 "c"))"), R"(print("abc");)");
}

TEST(ParseLexer, UnterminatedStringIsAnError) {
  EXPECT_EQ(first_error("probe begin { print(\"abc) }"),
            "<input>:1:21: error: unterminated string literal");
}

TEST(ParseLexer, CharacterOutsideTheLanguageIsAnError) {
  EXPECT_EQ(first_error("probe begin { x = `y` }"),
            "<input>:1:19: error: unexpected character '`'");
}

TEST(ParseLexer, Utf8IsFineInCommentsAndStringsButNotElsewhere) {
  EXPECT_EQ(body("# café\nx = \"naïve\" /* é */"), "x = \"naïve\";");
  EXPECT_EQ(first_error("probe begin { \xc3\xa9 }"),
            "<input>:1:15: error: unexpected byte 0xc3 outside a string or comment");
}

TEST(ParseLexer, OperatorsTakeTheLongestMatch) {
  EXPECT_EQ(expr_tree("a <<< b"), "(a <<< b)");
  EXPECT_EQ(expr_tree("a <<= b"), "(a <<= b)");
  EXPECT_EQ(expr_tree("a<<b"), "(a << b)");
  EXPECT_EQ(expr_tree("a>>>b"), "(a >>> b)");
}

} // namespace
} // namespace stap::parse_test
