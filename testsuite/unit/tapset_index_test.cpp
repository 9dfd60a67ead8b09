// The tapset index: what a quick scan finds a file defines, and which files
// a name or probe point sends the loader to.
#include "tapsets/index.h"

#include <gtest/gtest.h>

using namespace stap::tapsets;

namespace {
std::vector<std::string> function_names(const FileDefs &d) {
  std::vector<std::string> out;
  for (const auto &f : d.functions)
    out.push_back(f.name + "/" + std::to_string(f.arity));
  return out;
}
} // namespace

TEST(TapsetIndex, FindsTopLevelFunctionsWithArity) {
  FileDefs d = scan_tapset("f.stp", R"X(
    function a () { return 1 }
    function b:long (x:long, y) %{ /* } { */ STAP_RETURN(0); %}
    function c:string(s:string) { if (s == "}") { return "function d()" } }
    private function hidden () { }
    // function commented () {}
    /* function commented2 () {} */
    # function commented3 () {}
  )X");
  EXPECT_EQ(function_names(d), (std::vector<std::string>{"a/0", "b/2", "c/1"}));
  EXPECT_FALSE(d.always);
}

TEST(TapsetIndex, FindsGlobalsAndAliases) {
  FileDefs d = scan_tapset("g.stp", R"X(
    global counts[100], total = -1, last%, name = "x", argc = $#
    global argv_1 = %( $# >= 1 %? @1 %: "" %)
    private global secret
    probe syscall.open = kernel.function("do_sys_open") { name = "open" }
    probe syscall.open.return = kernel.function("do_sys_open").return ? { }
    probe tcp.a, tcp.b += kernel.function("x") { }
    probe begin { global_looking_local = 1 }
  )X");
  EXPECT_EQ(d.globals, (std::vector<std::string>{"counts", "total", "last", "name", "argc", "argv_1"}));
  EXPECT_EQ(d.aliases,
            (std::vector<std::string>{"syscall.open", "syscall.open.return", "tcp.a", "tcp.b"}));
}

TEST(TapsetIndex, BothPreprocessorBranchesCount) {
  FileDefs d = scan_tapset("p.stp", R"X(
    %( kernel_v >= "2.6.30" %?
    function f () {
    %:
    function g () {
    %)
      return 1
    }
    @define m(x) %( function not_real () { @x } %)
    function h () { }
  )X");
  EXPECT_EQ(function_names(d), (std::vector<std::string>{"f/0", "g/0", "h/0"}));
  EXPECT_FALSE(d.always);
}

TEST(TapsetIndex, UnbalancedFileIsAlwaysLoaded) {
  TapsetIndex index;
  index.add(scan_tapset("bad.stp", "function f () { { }"));
  index.add(scan_tapset("good.stp", "function g () { }"));
  EXPECT_TRUE(index.files()[0].always);
  EXPECT_EQ(index.files_defining_symbol("g"), (std::vector<size_t>{0, 1}));
  EXPECT_EQ(index.files_defining_symbol("f"), (std::vector<size_t>{0}));
}

TEST(TapsetIndex, ProbePointsFindAliasesWithWildcardsAndSuffixes) {
  TapsetIndex index;
  index.add(scan_tapset("sys.stp", "probe syscall.open = kernel.function(\"x\") {}"));
  index.add(scan_tapset("tcp.stp", "probe tcp.sendmsg = kernel.function(\"y\") {}"));
  EXPECT_EQ(index.files_defining_alias("syscall.open"), (std::vector<size_t>{0}));
  EXPECT_EQ(index.files_defining_alias("syscall.*"), (std::vector<size_t>{0}));
  EXPECT_EQ(index.files_defining_alias("syscall.open.return"), (std::vector<size_t>{0}));
  EXPECT_EQ(index.files_defining_alias("*.*"), (std::vector<size_t>{0, 1}));
  EXPECT_EQ(index.files_defining_alias("tcp.**"), (std::vector<size_t>{1}));
  EXPECT_TRUE(index.files_defining_alias("syscall").empty());
  EXPECT_TRUE(index.files_defining_alias("begin").empty());
}

// The index matches with SystemTap's whole glob (lang/glob.h), the one
// every other name goes through, not a `*`-only one of its own. (Scripts
// put only `*` and `**` in keywords: 4.8 reads `syscall.rea?` as the
// optional point `syscall.rea`, and `[` there is a parse error.)
TEST(TapsetIndex, EveryWildcardFindsItsFile) {
  TapsetIndex index;
  index.add(scan_tapset("sys.stp", "probe syscall.read = kernel.function(\"x\") {}"));
  index.add(scan_tapset("sched.stp", "probe scheduler.cpu_on = kernel.function(\"y\") {}"));
  EXPECT_EQ(index.files_defining_alias("syscall.rea?"), (std::vector<size_t>{0}));
  EXPECT_EQ(index.files_defining_alias("syscall.re[a-d]d"), (std::vector<size_t>{0}));
  EXPECT_EQ(index.files_defining_alias("syscall.re[!a]d"), (std::vector<size_t>{}));
  EXPECT_EQ(index.files_defining_alias("sys**"), (std::vector<size_t>{0}));
  EXPECT_EQ(index.files_defining_alias("sch**on"), (std::vector<size_t>{1}));
  EXPECT_EQ(index.files_defining_alias("**.return"), (std::vector<size_t>{0, 1}));
  EXPECT_EQ(index.files_defining_alias("s?scall.read"), (std::vector<size_t>{0}));
}

// The scan reads a file with the translator's own lexer: what the lexer
// takes as one token (a string holding `}`, `%{ %}`, `$#`) stays one.
TEST(TapsetIndex, TokensAreTheLexers) {
  FileDefs d = scan_tapset("l.stp", R"X(
    function a () %{ } } } %}
    function b () { x = "{{"; y = $# }
    global c = @#
  )X");
  EXPECT_EQ(function_names(d), (std::vector<std::string>{"a/0", "b/0"}));
  EXPECT_EQ(d.globals, (std::vector<std::string>{"c"}));
  EXPECT_FALSE(d.always);
  // A file the lexer rejects is loaded whenever anything is needed, so that
  // its errors are reported by the parser.
  EXPECT_TRUE(scan_tapset("bad.stp", "function f () { \"unterminated }").always);
}
