// Expressions: every operator, its precedence and associativity, and the
// @-operators, target variables and their diagnostics.
#include "parse_test_helpers.h"

namespace stap::parse_test {
namespace {

TEST(ParseExpr, MultiplicativeBindsTighterThanAdditiveThanConcat) {
  EXPECT_EQ(expr_tree("x = a + b * c"), "(x = (a + (b * c)))");
  EXPECT_EQ(expr_tree("x = a . b + c"), "(x = (a . (b + c)))");
  EXPECT_EQ(expr_tree("x = a - b - c"), "(x = ((a - b) - c))");
  EXPECT_EQ(expr_tree("x = a % b / c"), "(x = ((a % b) / c))");
}

TEST(ParseExpr, ShiftComparisonBitwiseAndLogicalLevels) {
  EXPECT_EQ(expr_tree("x = a << 1 < b"), "(x = ((a << 1) < b))");
  EXPECT_EQ(expr_tree("x = a == b & c"), "(x = ((a == b) & c))");
  EXPECT_EQ(expr_tree("x = a & b ^ c | d"), "(x = (((a & b) ^ c) | d))");
  EXPECT_EQ(expr_tree("x = a | b && c || d"), "(x = (((a | b) && c) || d))");
}

TEST(ParseExpr, AssignmentIsRightAssociativeAndTernaryBelowLogicalOr) {
  EXPECT_EQ(expr_tree("a = b += c"), "(a = (b += c))");
  EXPECT_EQ(expr_tree("a = b || c ? d : e"), "(a = ((b || c) ? d : e))");
  EXPECT_EQ(expr_tree("a = b ? c : d ? e : f"), "(a = (b ? c : (d ? e : f)))");
}

TEST(ParseExpr, EveryAssignmentOperator) {
  for (const char *op : {"=", "+=", "-=", "*=", "/=", "%=", "<<=", ">>=", "&=", "^=", "|=",
                         ".=", "<<<"})
    EXPECT_EQ(expr_tree(std::string("a ") + op + " 1"), std::string("(a ") + op + " 1)");
}

TEST(ParseExpr, AssignmentNeedsAnLvalue) {
  EXPECT_EQ(first_error("probe begin { 1 = 2 }"),
            "<input>:1:17: error: left operand of '=' is not assignable");
  EXPECT_EQ(first_error("probe begin { f()++ }"),
            "<input>:1:18: error: operand of '++' is not assignable");
}

TEST(ParseExpr, UnaryAndIncrementOperators) {
  EXPECT_EQ(expr_tree("x = -a * !b"), "(x = ((-a) * (!b)))");
  EXPECT_EQ(expr_tree("x = ~+a"), "(x = (~(+a)))");
  EXPECT_EQ(expr_tree("x = ++a + b--"), "(x = ((++a) + (b--)))");
  EXPECT_EQ(body("x = - -a"), "x = -(-a);");
}

TEST(ParseExpr, MissingOperandIsReportedAtTheNextToken) {
  EXPECT_EQ(first_error("probe begin { x = 1 + }"),
            "<input>:1:23: error: expected expression before '}'");
  EXPECT_EQ(first_error("probe begin { x = (1 + 2 }"),
            "<input>:1:26: error: expected ')' before '}'");
}

TEST(ParseExpr, RegexMatchNeedsALiteralString) {
  EXPECT_EQ(expr_tree("x = s =~ \"^a\" && t !~ \"b\""),
            "(x = ((s =~ \"^a\") && (t !~ \"b\")))");
  EXPECT_EQ(first_error("probe begin { x = s =~ t }"),
            "<input>:1:24: error: expected string literal before identifier 't'");
}

TEST(ParseExpr, MembershipWithKeysTuplesAndWildcards) {
  EXPECT_EQ(expr_tree("x = k in a"), "(x = ([k] in a))");
  EXPECT_EQ(expr_tree("x = [k, 1] in a"), "(x = ([k, 1] in a))");
  EXPECT_EQ(expr_tree("x = [*, 1] in a"), "(x = ([*, 1] in a))");
  EXPECT_EQ(expr_tree("x = !(k in a) && j < 2 in b"), "(x = ((!([k] in a)) && ([(j < 2)] in b)))");
  EXPECT_EQ(first_error("probe begin { x = [1, 2] a }"),
            "<input>:1:26: error: expected 'in' before identifier 'a'");
  EXPECT_EQ(first_error("probe begin { x = k in 3 }"),
            "<input>:1:24: error: expected array name before number '3'");
}

TEST(ParseExpr, CallsIndexesAndWildcardIndexes) {
  EXPECT_EQ(body("f(); g(1, \"a\", h(2)); a[1, \"x\"] = 3; delete a[*, 2]"),
            "f();\ng(1, \"a\", h(2));\na[1, \"x\"] = 3;\ndelete a[*, 2];");
  EXPECT_EQ(first_error("probe begin { f(1, ) }"),
            "<input>:1:20: error: expected expression before ')'");
  EXPECT_EQ(first_error("probe begin { a[1 }"),
            "<input>:1:19: error: expected ']' before '}'");
}

TEST(ParseExpr, TargetVariablesWithMembersIndexesAndPrettySuffixes) {
  EXPECT_EQ(body("x = $var->a[3]->next; y = $$vars; z = $p->q$; w = $$parms$$; v = &$x->y; "
                 "u = $return"),
            "x = $var->a[3]->next;\ny = $$vars;\nz = $p->q$;\nw = $$parms$$;\nv = &$x->y;\n"
            "u = $return;");
  EXPECT_EQ(first_error("probe begin { x = $p$->q }"),
            "<input>:1:22: error: nothing may follow a '$' or '$$' suffix");
  EXPECT_EQ(first_error("probe begin { x = &y }"),
            "<input>:1:19: error: '&' applies only to a $target, @cast, @var or '->' member expression");
}

TEST(ParseExpr, CastVarAndAutocast) {
  EXPECT_EQ(body("x = @cast(p, \"task_struct\", \"kernel<linux/sched.h>\")->pid; "
                 "y = @var(\"jiffies@kernel/time.c\")->x; z = task()->mm; w = (a)[2]; "
                 "v = &@cast(p, \"s\")->f"),
            "x = @cast(p, \"task_struct\", \"kernel<linux/sched.h>\")->pid;\n"
            "y = @var(\"jiffies@kernel/time.c\")->x;\nz = task()->mm;\nw = (a)[2];\n"
            "v = &@cast(p, \"s\")->f;");
  EXPECT_EQ(first_error("probe begin { x = @cast(p)->a }"),
            "<input>:1:26: error: expected ',' before ')'");
  EXPECT_EQ(first_error("probe begin { x = @var(y) }"),
            "<input>:1:24: error: expected string literal before identifier 'y'");
}

TEST(ParseExpr, AtOperators) {
  EXPECT_EQ(body("a = @defined($x) ? @entry($y) : 0; @probewrite(v); "
                 "b = @kregister(1) + @uregister(2) + @kderef(4, p) + @uderef(8, q)"),
            "a = @defined($x) ? @entry($y) : 0;\n@probewrite(v);\n"
            "b = @kregister(1) + @uregister(2) + @kderef(4, p) + @uderef(8, q);");
  // @const is embedded C: guru mode or a tapset (4.8's parse error).
  parse::ParseOptions guru;
  guru.env.guru_mode = true;
  Parsed g = parse_text("probe begin { a = @const(\"PAGE_SIZE\") }", guru);
  EXPECT_EQ(g.errors, "");
  EXPECT_EQ(first_error("probe begin { a = @const(\"PAGE_SIZE\") }"),
            "<input>:1:19: error: using @const operator not permitted; need stap -g");
  EXPECT_EQ(first_error("probe begin { x = @nosuch(1) }"),
            "<input>:1:19: error: unknown macro or @-operator '@nosuch'");
}

TEST(ParseExpr, AggregateExtractorsAndHistograms) {
  EXPECT_EQ(body("s <<< 1; x = @count(s) + @sum(s) + @min(s) + @max(s) + @avg(s) + "
                 "@variance(s) + @variance(s, 3); print(@hist_log(s)); "
                 "y = @hist_linear(s, 0, 100, 10)[2]"),
            "s <<< 1;\nx = @count(s) + @sum(s) + @min(s) + @max(s) + @avg(s) + @variance(s) + "
            "@variance(s, 3);\nprint(@hist_log(s));\ny = @hist_linear(s, 0, 100, 10)[2];");
  EXPECT_EQ(first_error("probe begin { print(@hist_linear(s, 0, 100)) }"),
            "<input>:1:43: error: expected ',' before ')'");
  EXPECT_EQ(first_error("probe begin { x = @count(s, 1) }"),
            "<input>:1:27: error: expected ')' before ','");
}

TEST(ParseExpr, EmbeddedCodeAsAnExpressionNeedsGuruMode) {
  parse::ParseOptions guru;
  guru.env.guru_mode = true;
  EXPECT_EQ(parse_text("probe begin { x = %{ 1 + 2 %} }", guru).errors, "");
  EXPECT_EQ(first_error("probe begin { x = %{ 1 + 2 %} }"),
            "<input>:1:19: error: embedded expression code in unprivileged script; need stap -g");
}

TEST(ParseExpr, PrintedFormParsesToTheSameTree) {
  const char *cases[] = {"x = (a + b) * c", "x = a - (b - c)", "x = (a = b) + 1",
                         "x = -(-a)", "x = (a ? b : c) ? d : e", "x = (k in a) in b",
                         "x = a . (b . c)", "x = (a < b) < c"};
  for (const char *c : cases) {
    std::string printed = body(c);
    EXPECT_EQ(expr_tree(printed), expr_tree(c)) << c << " printed as " << printed;
  }
}

} // namespace
} // namespace stap::parse_test
