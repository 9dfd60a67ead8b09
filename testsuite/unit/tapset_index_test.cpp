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
  EXPECT_TRUE(component_matches("sys_*open*", "sys_openat"));
  EXPECT_FALSE(component_matches("sys_*x", "sys_openat"));
}
