// Top-level declarations: probes and their probe points, aliases,
// functions, globals, embedded C, and error recovery between declarations.
#include "parse_test_helpers.h"

namespace stap::parse_test {
namespace {

TEST(ParseDecl, ProbePointsWithArgumentsWildcardsAndMarks) {
  Parsed p = parse_text("probe kernel.function(\"sys_*\").return, timer.s(1), begin(-1), "
                        "process(\"/bin/ls\").function(\"*\").call ?, syscall.* !, "
                        "module(\"ext4\").**, foo if (x > 1) { }");
  ASSERT_EQ(p.errors, "");
  EXPECT_EQ(p.printed,
            "probe kernel.function(\"sys_*\").return, timer.s(1), begin(-1), "
            "process(\"/bin/ls\").function(\"*\").call?, syscall.*!, module(\"ext4\").**, "
            "foo if (x > 1) {\n}\n");
  auto *pp = p.file->probes[0]->points[3];
  EXPECT_TRUE(pp->optional);
  EXPECT_FALSE(pp->sufficient);
  EXPECT_TRUE(p.file->probes[0]->points[4]->sufficient);
}

TEST(ParseDecl, WildcardPartsMustBeWrittenTogether) {
  Parsed p = parse_text("probe sys_*_at.x { }");
  ASSERT_EQ(p.errors, "");
  EXPECT_EQ(p.file->probes[0]->points[0]->components[0].functor, "sys_*_at");
  EXPECT_EQ(first_error("probe a.(1) { }"),
            "<input>:1:9: error: expected probe point component before '('");
}

TEST(ParseDecl, BraceExpansionIsAProductInOrder) {
  EXPECT_EQ(parse_text("probe syscall.{open,close}.{call,return} { }").printed,
            "probe syscall.open.call, syscall.open.return, syscall.close.call, "
            "syscall.close.return {\n}\n");
  EXPECT_EQ(parse_text("probe {kernel,module(\"nfs\")}.function(\"nfs*\")! { }").printed,
            "probe kernel.function(\"nfs*\")!, module(\"nfs\").function(\"nfs*\")! {\n}\n");
  EXPECT_EQ(parse_text("probe k.{a.{b,c},d}? { }").printed, "probe k.a.b?, k.a.c?, k.d? {\n}\n");
  EXPECT_EQ(parse_text("probe kernel.{trace(\"a\")!, trace(\"b\")} { }").printed,
            "probe kernel.trace(\"a\")!, kernel.trace(\"b\") {\n}\n");
  EXPECT_EQ(first_error("probe {a?,b}.c { }"),
            "<input>:1:9: error: '?', '!' and 'if' may only follow the last component of a "
            "probe point");
  EXPECT_EQ(first_error("probe a.{b,c { }"), "<input>:1:14: error: expected '}' before '{'");
}

TEST(ParseDecl, ProbeArgumentsAreLiterals) {
  EXPECT_EQ(first_error("probe timer.s(x) { }"),
            "<input>:1:15: error: expected number or string literal before identifier 'x'");
  EXPECT_EQ(first_error("probe begin"), "<input>:1:12: error: expected '{' before end of input");
}

TEST(ParseDecl, AliasesWithPrologueEpilogueAndBoth) {
  Parsed p = parse_text("probe a.b = c.d ?, e { x = 1 }\nprobe f += g { y = 2 }\n"
                        "probe h = i { pro() }, { epi() }");
  ASSERT_EQ(p.errors, "");
  ASSERT_EQ(p.file->aliases.size(), 3u);
  EXPECT_FALSE(p.file->aliases[0]->epilogue);
  EXPECT_TRUE(p.file->aliases[1]->epilogue);
  EXPECT_NE(p.file->aliases[2]->epilogue_body, nullptr);
  EXPECT_EQ(p.printed, "probe a.b = c.d?, e {\n  x = 1;\n}\nprobe f += g {\n  y = 2;\n}\n"
                       "probe h = i {\n  pro();\n}, {\n  epi();\n}\n");
  EXPECT_EQ(first_error("probe f += g { } , { }"),
            "<input>:1:1: error: only an alias defined with '=' may have a second (epilogue) "
            "block");
}

TEST(ParseDecl, FunctionsWithTypesPriorityAndPrivate) {
  Parsed p = parse_text("function f:long (a:long, b:string, c) { return a }\n"
                        "private function g() { }\nfunction h(x):2 { }");
  ASSERT_EQ(p.errors, "");
  auto *f = p.file->functions[0];
  EXPECT_EQ(f->return_type, ast::Type::Long);
  EXPECT_EQ(f->params[1]->type, ast::Type::String);
  EXPECT_FALSE(f->params[2]->declared_type);
  EXPECT_TRUE(p.file->functions[1]->is_private);
  EXPECT_EQ(p.file->functions[2]->priority, 2);
  EXPECT_EQ(p.printed, "function f:long (a:long, b:string, c) {\n  return a;\n}\n"
                       "private function g () {\n}\nfunction h (x):2 {\n}\n");
  EXPECT_EQ(first_error("function f:int () { }"),
            "<input>:1:12: error: expected 'long' or 'string' before identifier 'int'");
  EXPECT_EQ(first_error("function if() { }"),
            "<input>:1:10: error: expected function name before keyword 'if'");
  EXPECT_EQ(first_error("function f(a b) { }"),
            "<input>:1:14: error: expected ')' before identifier 'b'");
}

TEST(ParseDecl, EmbeddedFunctionBodiesAndTopLevelCodeNeedGuruModeOutsideTapsets) {
  const char *text = "%{ #include <linux/sched.h> %}\nfunction f:long () %{ STAP_RETURN(1); %}";
  EXPECT_EQ(first_error(text),
            "<input>:1:1: error: embedded code in unprivileged script; need stap -g");
  parse::ParseOptions guru;
  guru.env.guru_mode = true;
  Parsed p = parse_text(text, guru);
  EXPECT_EQ(p.errors, "");
  EXPECT_EQ(p.printed, "%{ #include <linux/sched.h> %}\nfunction f:long () %{ STAP_RETURN(1); %}\n");
  EXPECT_EQ(parse_text(text, {}, /*privileged=*/true).errors, "");
}

TEST(ParseDecl, GlobalsWithInitializersSizesAndWrapping) {
  Parsed p = parse_text("global a, b = -4, c = \"s\", d[100], e%[10], f%\nprivate global g\n"
                        "private h");
  ASSERT_EQ(p.errors, "");
  EXPECT_EQ(p.printed, "global a\nglobal b = -4\nglobal c = \"s\"\nglobal d[100]\n"
                       "global e[10]%\nglobal f%\nprivate global g\nprivate global h\n");
  EXPECT_TRUE(p.file->globals[4]->wrap);
  EXPECT_TRUE(p.file->globals[5]->array);
  EXPECT_EQ(first_error("global x = y"),
            "<input>:1:12: error: expected number or string literal before identifier 'y'");
  EXPECT_EQ(first_error("global x[0]"), "<input>:1:10: error: array size must be positive");
  EXPECT_EQ(first_error("private probe begin { }"),
            "<input>:1:1: error: a probe cannot be private");
}

// Each verdict checked against SystemTap 4.8 (`stap -p1`): all rejected there
// at pass 1, at the same token.
TEST(ParseDecl, AGlobalOrParameterIsDeclaredOnceAndOnlyScalarsAreInitialized) {
  EXPECT_EQ(first_error("global a; global a"),
            "<input>:1:18: error: global 'a' is declared twice");
  EXPECT_EQ(first_error("global a, a"), "<input>:1:11: error: global 'a' is declared twice");
  EXPECT_EQ(first_error("private a; private a"),
            "<input>:1:20: error: global 'a' is declared twice");
  EXPECT_EQ(first_error("global a; private a"),
            "<input>:1:19: error: global 'a' is declared both private and not private");
  EXPECT_EQ(first_error("private a; global a"),
            "<input>:1:19: error: global 'a' is declared both private and not private");
  EXPECT_EQ(first_error("function f(x:long, y, x:string) { }"),
            "<input>:1:23: error: parameter 'x' is declared twice");
  EXPECT_EQ(first_error("global a[10] = 42"),
            "<input>:1:14: error: only a scalar global can have an initializer");
  EXPECT_EQ(first_error("global a%[10] = 1"),
            "<input>:1:15: error: only a scalar global can have an initializer");
  // The accepted neighbours: other names, a function and a global of one
  // name, a parameter named as a global, initialized scalars beside arrays.
  EXPECT_EQ(parse_text("global a, b = 1, c[10]\nprivate d\nfunction a(b, c) { }\n"
                       "function f(a) { }").errors,
            "");
}

TEST(ParseDecl, EachBrokenDeclarationIsReportedOnceAndTheRestStillParses) {
  Parsed p = parse_text("probe begin { x = }\nfunction f( { }\nglobal ok\nprobe end { y = 1 + }\n"
                        "probe error { }");
  EXPECT_EQ(p.errors.find("<input>:1:19: error: expected expression before '}'"), 0u) << p.errors;
  EXPECT_NE(p.errors.find("<input>:2:13: error: expected ')' before '{'"), std::string::npos);
  EXPECT_NE(p.errors.find("<input>:4:21: error: expected expression before '}'"),
            std::string::npos);
  EXPECT_EQ(std::count(p.errors.begin(), p.errors.end(), '^'), 3);
  EXPECT_EQ(p.printed, "global ok\nprobe error {\n}\n");
}

TEST(ParseDecl, DiagnosticsShowTheLineAndACaret) {
  EXPECT_EQ(parse_text("probe begin {\n  printf(\"x\" 1)\n}").errors,
            "<input>:2:14: error: expected ')' before number '1'\n"
            "      printf(\"x\" 1)\n"
            "                 ^\n");
}

TEST(ParseDecl, StrayTokensAtTopLevel) {
  EXPECT_EQ(first_error("probe begin { } }"),
            "<input>:1:17: error: expected 'probe', 'function' or 'global' before '}'");
}

} // namespace
} // namespace stap::parse_test
