// Statements: each form accepted and printed back, and the diagnostics of
// the malformed ones.
#include "parse_test_helpers.h"

namespace stap::parse_test {
namespace {

TEST(ParseStmt, SemicolonsAreOptionalAndALoneOneIsANullStatement) {
  EXPECT_EQ(body("a = 1 b = 2;; c = 3"), "a = 1;\nb = 2;\n;\nc = 3;");
}

TEST(ParseStmt, IfElseWhileAndFor) {
  EXPECT_EQ(body("if (a) b = 1; else if (c) { d = 2 } else e()"),
            "if (a) b = 1; else if (c) {\n  d = 2;\n} else e();");
  EXPECT_EQ(body("while (i < 3) i++"), "while (i < 3) i++;");
  EXPECT_EQ(body("for (i = 0; i < 3; i++) ; for (;;) break"),
            "for (i = 0; i < 3; i++) ;\nfor (; ; ) break;");
  EXPECT_EQ(first_error("probe begin { if a { } }"),
            "<input>:1:18: error: expected '(' before identifier 'a'");
  EXPECT_EQ(first_error("probe begin { for (i = 0; i < 3) x() }"),
            "<input>:1:32: error: expected ';' before ')'");
  EXPECT_EQ(first_error("probe begin { while (x) }"),
            "<input>:1:25: error: expected statement before '}'");
}

TEST(ParseStmt, ForeachFormsWithSortMarkersAndLimit) {
  EXPECT_EQ(body("foreach (k in a) f(k)"), "foreach ([k] in a) f(k);");
  EXPECT_EQ(body("foreach ([k1, k2-] in a limit 5) ;"), "foreach ([k1, k2-] in a limit 5) ;");
  EXPECT_EQ(body("foreach (v = k in a+) ;"), "foreach (v = [k] in a+) ;");
  EXPECT_EQ(body("foreach (v = [x, y] in a[*, 3] @max- limit n + 1) ;"),
            "foreach (v = [x, y] in a[*, 3] @max- limit n + 1) ;");
  EXPECT_EQ(body("foreach (b in @hist_log(s)) ;"), "foreach ([b] in @hist_log(s)) ;");
}

TEST(ParseStmt, ForeachSortColumnsAreRecorded) {
  Parsed p = parse_text("probe begin { foreach ([a, b+] in x) ; foreach (v- = k in x) ; }");
  ASSERT_EQ(p.errors, "");
  auto *f1 = static_cast<ast::ForeachStmt *>(p.file->probes[0]->body->stmts[0]);
  auto *f2 = static_cast<ast::ForeachStmt *>(p.file->probes[0]->body->stmts[1]);
  EXPECT_EQ(f1->sort_column, 2);
  EXPECT_EQ(f1->sort_dir, 1);
  EXPECT_EQ(f2->sort_column, 0);
  EXPECT_EQ(f2->sort_dir, -1);
}

TEST(ParseStmt, ForeachRejectsTwoSortOrdersAndMissingIn) {
  EXPECT_EQ(first_error("probe begin { foreach ([a+, b-] in x) ; }"),
            "<input>:1:30: error: only one sort order may be given in foreach");
  EXPECT_EQ(first_error("probe begin { foreach (k of x) ; }"),
            "<input>:1:26: error: expected 'in' before identifier 'of'");
  EXPECT_EQ(first_error("probe begin { foreach (1 in x) ; }"),
            "<input>:1:24: error: expected foreach key variable before number '1'");
}

TEST(ParseStmt, JumpsReturnAndDelete) {
  EXPECT_EQ(body("break; continue; next; delete a; delete a[1]"),
            "break;\ncontinue;\nnext;\ndelete a;\ndelete a[1];");
  Parsed fn = parse_text("function f() { return; return 1 + 2 }");
  EXPECT_EQ(fn.errors, "");
  EXPECT_EQ(fn.printed, "function f () {\n  return;\n  return 1 + 2;\n}\n");
  // As in 4.8: a parse error outside a function, in probes and aliases.
  EXPECT_EQ(first_error("probe begin { return 1 }"),
            "<input>:1:15: error: found 'return' not in function context");
  EXPECT_EQ(first_error("function f() { } probe a = begin { if (1) return }"),
            "<input>:1:43: error: found 'return' not in function context");
  EXPECT_EQ(first_error("probe begin { delete }"),
            "<input>:1:22: error: expected expression before '}'");
}

TEST(ParseStmt, TryCatchWithAndWithoutVariable) {
  EXPECT_EQ(body("try { f() } catch { g() } try { } catch (msg) { println(msg) }"),
            "try {\n  f();\n} catch {\n  g();\n}\ntry {\n} catch (msg) {\n  println(msg);\n}");
  EXPECT_EQ(first_error("probe begin { try { } }"),
            "<input>:1:23: error: expected 'catch' before '}'");
  EXPECT_EQ(first_error("probe begin { try f() catch { } }"),
            "<input>:1:19: error: expected '{' before identifier 'f'");
}

TEST(ParseStmt, NestingIsLimitedInsteadOfOverflowingTheStack) {
  std::string deep = "probe begin { x = " + std::string(1000, '(') + "1" +
                     std::string(1000, ')') + " }";
  EXPECT_EQ(first_error(deep), "<input>:1:168: error: nesting too deep (more than 150 levels)");
  std::string ok = "probe begin { x = " + std::string(100, '(') + "1" + std::string(100, ')') + " }";
  EXPECT_EQ(parse_text(ok).errors, "");
}

TEST(ParseStmt, AChainOfUnaryOperatorsWithinTheLimitParsesAgainOncePrinted) {
  // -p1 prints `!!x` as `!(!x)`: a parenthesis after a unary operator costs
  // no more than the operator did, so what parses still parses printed
  // (found by parse_fuzz: 117 `!`s printed as 117 `!(`s, 234 levels).
  std::string chain = "x = " + std::string(140, '!') + "1";
  std::string printed = body(chain);
  EXPECT_EQ(printed.substr(0, 10), "x = !(!(!(");
  EXPECT_EQ(parse_text("probe begin { " + printed + " }").errors, "");
  EXPECT_EQ(body(printed), printed);
  // Past the limit, in either spelling: an error, not a stack overflow.
  EXPECT_NE(first_error("probe begin { x = " + std::string(10000, '!') + "1 }"), "");
  std::string parens;
  for (int i = 0; i < 10000; ++i)
    parens += "-(";
  EXPECT_NE(first_error("probe begin { x = " + parens + "1" + std::string(10000, ')') + " }"),
            "");
}

TEST(ParseStmt, UnclosedBlockIsReportedAtTheEnd) {
  EXPECT_EQ(first_error("probe begin { x = 1"),
            "<input>:1:20: error: expected '}' before end of input");
}

} // namespace
} // namespace stap::parse_test
