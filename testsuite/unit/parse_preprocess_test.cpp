// The preprocessor: conditionals, macros, script arguments.
#include "parse/preprocess.h"
#include "parse_test_helpers.h"

namespace stap::parse_test {
namespace {

parse::ParseOptions kernel(const std::string &release, const std::string &arch = "x86_64") {
  parse::ParseOptions o;
  o.env.kernel_release = release;
  o.env.arch = arch;
  o.env.kernel_config = {{"CONFIG_SMP", "y"}, {"CONFIG_NR_CPUS", "64"}, {"CONFIG_HZ", "250"}};
  return o;
}

// Which branch `cond` picks, as the global the branch declares.
std::string pick(const std::string &cond, const parse::ParseOptions &o = kernel("6.1.0-56-amd64")) {
  Parsed p = parse_text("%( " + cond + " %? global yes %: global no %)", o);
  EXPECT_EQ(p.errors, "") << cond;
  return p.file->globals.empty() ? "" : p.file->globals[0]->name;
}

TEST(ParsePreprocess, KernelVersionsCompareAsVersionsOrGlobs) {
  EXPECT_EQ(pick("kernel_v >= \"2.6.30\""), "yes");
  EXPECT_EQ(pick("kernel_v < \"6.1.10\""), "yes"); // 6.1.0 < 6.1.10, not as strings
  EXPECT_EQ(pick("kernel_v == \"6.1.0\""), "yes");
  EXPECT_EQ(pick("kernel_vr == \"6.1.0\""), "no");
  EXPECT_EQ(pick("kernel_vr == \"6.1.*-amd64\""), "yes");
  EXPECT_EQ(pick("kernel_vr != \"5.*\""), "yes");
}

TEST(ParsePreprocess, ArchConfigPrivilegeGuruRuntimeAndVersion) {
  EXPECT_EQ(pick("arch == \"x86_64\""), "yes");
  EXPECT_EQ(pick("arch == \"i?86\""), "no");
  EXPECT_EQ(pick("arch == \"i?86\"", kernel("6.1.0", "i686")), "yes");
  EXPECT_EQ(pick("CONFIG_SMP == \"y\""), "yes");
  EXPECT_EQ(pick("CONFIG_UNSET == \"\""), "yes");
  EXPECT_EQ(pick("CONFIG_NR_CPUS >= CONFIG_HZ"), "no"); // numbers: 64 < 250
  EXPECT_EQ(pick("CONFIG_HZ > 100"), "yes");
  EXPECT_EQ(pick("systemtap_privilege == \"stapdev\""), "yes");
  EXPECT_EQ(pick("systemtap_privilege == \"stap*\""), "no"); // exact, as 4.8
  EXPECT_EQ(pick("guru_mode == 0"), "yes");
  EXPECT_EQ(pick("runtime == \"kernel\""), "yes");
  EXPECT_EQ(pick("systemtap_v >= \"2.0\""), "yes");
  EXPECT_EQ(pick("systemtap_v < \"4.10\""), "yes");
  EXPECT_EQ(pick("1 < 2"), "yes");
  EXPECT_EQ(pick("\"a\" == \"b\""), "no");
}

// Every form of `man stap`'s PREPROCESSING section, each accepted form
// with rejected neighbours. Each verdict was checked against SystemTap 4.8
// (Debian's stap -r 6.1.0-56-amd64 -p1 -e SCRIPT [ARG], 2026-11-25; T and F
// stood for probes that print TRUE and FALSE): "yes" when T is chosen,
// "no" when F is, "error" when 4.8 rejects the script at pass 1.
TEST(ParsePreprocess, VerdictsOfSystemTap48) {
  struct Case {
    const char *script, *arg, *verdict;
  };
  static const Case cases[] = {
      {"%( kernel_v >= \"2.6.30\" %? T %: F %)", "", "yes"},
      {"%( kernel_v < \"2.6.30\" %? T %: F %)", "", "no"},
      {"%( kernel_v == \"6.1*\" %? T %: F %)", "", "yes"},
      {"%( kernel_v != \"6.1*\" %? T %: F %)", "", "no"},
      {"%( kernel_vr == \"6.1.0-*-amd64\" %? T %: F %)", "", "yes"},
      {"%( kernel_vr >= \"6.1.0-50\" %? T %: F %)", "", "yes"},
      {"%( kernel_v >= 2 %? T %: F %)", "", "error"},
      {"%( kernel_v \"2.6\" %? T %: F %)", "", "error"},
      {"%( kernel_v =~ \"2.6\" %? T %: F %)", "", "error"},
      {"%( arch == \"x86_64\" %? T %: F %)", "", "yes"},
      {"%( arch == \"x86*\" %? T %: F %)", "", "yes"},
      {"%( arch != \"i386\" %? T %: F %)", "", "yes"},
      {"%( arch < \"x86_64\" %? T %: F %)", "", "error"},
      {"%( arch == 1 %? T %: F %)", "", "error"},
      {"%( runtime == \"kernel\" %? T %: F %)", "", "yes"},
      {"%( runtime != \"bpf\" %? T %: F %)", "", "yes"},
      {"%( runtime < \"kernel\" %? T %: F %)", "", "error"},
      {"%( systemtap_v >= \"4.0\" %? T %: F %)", "", "yes"},
      {"%( systemtap_v < \"1.0\" %? T %: F %)", "", "no"},
      {"%( systemtap_v >= 4 %? T %: F %)", "", "error"},
      {"%( systemtap_privilege == \"stapdev\" %? T %: F %)", "", "yes"},
      {"%( systemtap_privilege != \"stapusr\" %? T %: F %)", "", "yes"},
      {"%( systemtap_privilege < \"stapusr\" %? T %: F %)", "", "error"},
      {"%( systemtap_privilege == \"root\" %? T %: F %)", "", "no"},
      {"%( guru_mode == 0 %? T %: F %)", "", "yes"},
      {"%( guru_mode != 1 %? T %: F %)", "", "yes"},
      {"%( guru_mode == \"0\" %? T %: F %)", "", "error"},
      {"%( guru_mode < 1 %? T %: F %)", "", "error"},
      {"%( CONFIG_KPROBES == \"y\" %? T %: F %)", "", "yes"},
      {"%( CONFIG_KPROBES == \"[ym]\" %? T %: F %)", "", "yes"},
      {"%( CONFIG_NO_SUCH_OPTION == \"\" %? T %: F %)", "", "yes"},
      {"%( CONFIG_KPROBES == 1 %? T %: F %)", "", "error"},
      {"%( CONFIG_KPROBES < \"y\" %? T %: F %)", "", "error"},
      {"%( \"a\" < \"b\" %? T %: F %)", "", "yes"},
      {"%( 1 < 2 %? T %: F %)", "", "yes"},
      {"%( 3 >= 3 %? T %: F %)", "", "yes"},
      {"%( 1 < \"b\" %? T %: F %)", "", "error"},
      {"%( $# == 0 %? T %: F %)", "", "yes"},
      {"%( @# == 0 %? T %: F %)", "", "error"},
      {"%( $# == \"0\" %? T %: F %)", "", "error"},
      {"%( arch == \"x86_64\" && 1 == 1 %? T %: F %)", "", "yes"},
      {"%( arch == \"i386\" || 1 == 1 %? T %: F %)", "", "yes"},
      {"%( 1 == 2 && 1 == 1 || 2 == 2 %? T %: F %)", "", "yes"},
      {"%( (1 == 1) %? T %: F %)", "", "error"},
      {"%( 1 == 1 %? %( 2 == 2 %? T %: F %) %: F %)", "", "yes"},
      {"%( 1 == 2 %? %( 2 == 2 %? F %: F %) %: T %)", "", "yes"},
      {"%( 1 == 1 %? T %)", "", "yes"},
      {"%( 1 == 2 %? F %) T", "", "yes"},
      {"%( 1 == 1 %? T", "", "error"},
      {"%( 1 == 1 T %)", "", "error"},
      {"%( %? T %: F %)", "", "error"},
      {"%( 1 == 1 %? %: F %) T", "", "yes"},
      {"%( 1 == 2 %? F %: T %: F %)", "", "error"},
      {"%( foo == \"x\" %? T %: F %)", "", "error"},
      {"%( arch == x86_64 %? T %: F %)", "", "error"},
      {"%( 1 %? T %: F %)", "", "error"},
      {"T %)", "", "error"},
      {"T %:", "", "error"},
      {"T %?", "", "error"},
      {"%( $1 == \"x\" %? T %: F %)", "5", "error"},
      {"%( $1 == 5 %? T %: F %)", "5", "yes"},
      {"%( CONFIG_HZ == 250 %? T %: F %)", "", "yes"},
      {"%( CONFIG_HZ > 100 %? T %: F %)", "", "yes"},
      {"%( CONFIG_HZ == \"250\" %? T %: F %)", "", "yes"},
      {"%( CONFIG_NO_SUCH_OPTION == 0 %? T %: F %)", "", "yes"},
      {"%( CONFIG_NO_SUCH_OPTION < 1 %? T %: F %)", "", "yes"},
      {"%( CONFIG_KPROBES > 0 %? T %: F %)", "", "error"},
      {"%( guru_mode > 0 %? T %: F %)", "", "error"},
      {"%( guru_mode == 2 %? T %: F %)", "", "error"},
      {"%( systemtap_privilege == \"stap*\" %? T %: F %)", "", "no"},
      {"%( kernel_v != \"6.1.0\" %? T %: F %)", "", "no"},
      {"%( \"6.1\" == kernel_v %? T %: F %)", "", "error"},
      {"%( $# >= 1 %? T %: F %)", "", "no"},
      {"%( \"abc\" == \"a*\" %? T %: F %)", "", "no"},
      {"%( \"abc\" != \"abd\" %? T %: F %)", "", "yes"},
      {"%( 1 == 1 && %? T %: F %)", "", "error"},
      {"%( || 1 == 1 %? T %: F %)", "", "error"},
      {"%( CONFIG_NR_CPUS >= CONFIG_SPLIT_PTLOCK_CPUS %? T %: F %)", "", "yes"},
      {"%( CONFIG_NR_CPUS == CONFIG_NR_CPUS %? T %: F %)", "", "yes"},
      {"%( kernel_v >= kernel_vr %? T %: F %)", "", "error"},
      {"%( arch == arch %? T %: F %)", "", "error"},
      {"%( 1 == guru_mode %? T %: F %)", "", "error"},
      {"%( -1 < 0 %? T %: F %)", "", "error"},
      {"%( CONFIG_HZ > -1 %? T %: F %)", "", "error"},
      {"%( runtime == \"ker*\" %? T %: F %)", "", "yes"},
      {"%( guru_mode == 1 %? T %: F %)", "", "no"},
      {"%( systemtap_v == \"4.*\" %? T %: F %)", "", "yes"},
  };
  for (const Case &c : cases) {
    parse::ParseOptions o = kernel("6.1.0-56-amd64");
    o.env.kernel_config = {{"CONFIG_KPROBES", "y"}, {"CONFIG_HZ", "250"},
                           {"CONFIG_NR_CPUS", "8192"}, {"CONFIG_SPLIT_PTLOCK_CPUS", "4"}};
    if (*c.arg)
      o.script_args = {c.arg};
    std::string text = c.script;
    for (auto [from, to] : {std::pair<std::string, std::string>{"T", "global yes"}, {"F", "global no"}})
      for (size_t at = 0; (at = text.find(" " + from, at)) != std::string::npos;)
        if (at + 2 == text.size() || text[at + 2] == ' ')
          text.replace(at + 1, 1, to);
        else
          ++at;
    if (text.rfind("T ", 0) == 0)
      text.replace(0, 1, "global yes");
    Parsed p = parse_text(text, o);
    std::string got = !p.errors.empty() ? "error"
                      : p.printed.find("global no") != std::string::npos ? "no"
                      : p.printed.find("global yes") != std::string::npos ? "yes"
                                                                            : "none";
    EXPECT_EQ(got, c.verdict) << c.script << "\n" << p.errors;
  }
}

TEST(ParsePreprocess, AndBindsTighterThanOr) {
  EXPECT_EQ(pick("1 == 1 || 1 == 2 && 1 == 2"), "yes");
  EXPECT_EQ(pick("1 == 2 && 1 == 1 || 1 == 2"), "no");
}

TEST(ParsePreprocess, ConditionalsNestAndTheElseIsOptional) {
  Parsed p = parse_text("%( 1 == 1 %? %( 2 == 3 %? global a %: global b %) %) "
                        "%( 1 == 2 %? global c %)",
                        kernel("6.1.0"));
  EXPECT_EQ(p.errors, "");
  EXPECT_EQ(p.printed, "global b\n");
}

TEST(ParsePreprocess, TheUnchosenBranchIsNotParsed) {
  EXPECT_EQ(parse_text("%( 1 == 2 %? this is not ) valid { %: global ok %)").errors, "");
}

TEST(ParsePreprocess, MalformedConditionalsAreErrors) {
  EXPECT_EQ(first_error("%( arch == \"x\" global a %)"),
            "<input>:1:1: error: expected '%?' in this preprocessor conditional");
  EXPECT_EQ(first_error("%( 1 == 1 %? global a"),
            "<input>:1:1: error: unterminated preprocessor conditional (missing '%)')");
  EXPECT_EQ(first_error("%( nonsense == 1 %? global a %)"),
            "<input>:1:4: error: unknown preprocessor condition 'nonsense'");
  EXPECT_EQ(first_error("%( arch < \"x\" %? global a %)"),
            "<input>:1:9: error: only '==' and '!=' apply to this preprocessor condition");
  EXPECT_EQ(first_error("global a %)"), "<input>:1:10: error: '%)' without a matching '%('");
}

TEST(ParsePreprocess, MacrosWithAndWithoutParameters) {
  Parsed p = parse_text("@define two %( 2 %)\n@define add(a, b) %( (@a + @b) %)\n"
                        "probe begin { x = @add(@two, f(1, 2)) * @two }");
  EXPECT_EQ(p.errors, "");
  EXPECT_EQ(p.printed, "probe begin {\n  x = (2 + f(1, 2)) * 2;\n}\n");
}

TEST(ParsePreprocess, MacroBodiesMayHoldConditionals) {
  EXPECT_EQ(parse_text("@define pick %( %( arch == \"x86_64\" %? 64 %: 32 %) %)\n"
                       "global bits = @pick",
                       kernel("6.1.0"))
                .printed,
            "global bits = 64\n");
}

TEST(ParsePreprocess, MacroErrors) {
  EXPECT_EQ(first_error("@define f(a) %( @a %)\nprobe begin { x = @f(1, 2) }"),
            "<input>:2:19: error: macro '@f' takes 1 argument, 2 given");
  EXPECT_EQ(first_error("@define f %( 1 %)\n@define f %( 2 %)"),
            "<input>:2:9: error: macro '@f' is already defined");
  EXPECT_EQ(first_error("@define r %( @r %)\nprobe begin { x = @r }"),
            "<input>:1:14: error: macro '@r' expands too deeply (recursive?)");
  EXPECT_EQ(first_error("@define %( 1 %)"),
            "<input>:1:9: error: expected a macro name after '@define'");
}

TEST(ParsePreprocess, ExponentialMacroExpansionIsCutOff) {
  std::string text = "@define m0 %( x %)\n";
  for (int i = 1; i <= 40; ++i)
    text += "@define m" + std::to_string(i) + " %( @m" + std::to_string(i - 1) + " @m" +
            std::to_string(i - 1) + " %)\n";
  Parsed p = parse_text(text + "probe begin { @m40 }");
  EXPECT_NE(p.errors.find("error: macro expansion of '@m"), std::string::npos) << p.errors;
  EXPECT_NE(p.errors.find("' is too large"), std::string::npos);
}

TEST(ParsePreprocess, LibraryMacrosAreVisibleToEveryFile) {
  auto table = std::make_shared<parse::MacroTable>();
  std::ostringstream errs;
  Diagnostics diag(errs);
  parse::ParseOptions opts;
  parse::load_macro_file(
      std::make_shared<SourceFile>("lib.stpm", "@define twice(x) %( (2 * @x) %)", true), *table,
      diag, opts);
  EXPECT_EQ(errs.str(), "");
  opts.library_macros = table;
  EXPECT_EQ(parse_text("global y = 1 probe begin { y = @twice(3) }", opts).printed,
            "global y = 1\nprobe begin {\n  y = 2 * 3;\n}\n");

  parse::load_macro_file(std::make_shared<SourceFile>("bad.stpm", "global x", true), *table, diag,
                         opts);
  EXPECT_EQ(errs.str().substr(0, errs.str().find('\n')),
            "bad.stpm:1:1: error: a macro library file may only contain @define, not "
            "keyword 'global'");
}

TEST(ParsePreprocess, ScriptArgumentsArePastedQuotedAndCounted) {
  parse::ParseOptions o;
  o.script_args = {"kernel.function(\"vfs_read\")", "10", "a b"};
  EXPECT_EQ(parse_text("probe $1 { x = $2 * 2; s = @3; n = $#; m = @# }", o).printed,
            "probe kernel.function(\"vfs_read\") {\n  x = 10 * 2;\n  s = \"a b\";\n  n = 3;\n"
            "  m = \"3\";\n}\n");
  EXPECT_EQ(pick("$# == 3", o), "yes");
  EXPECT_EQ(first_error("probe begin { x = $4 }", o),
            "<input>:1:19: error: command line argument $4 not given (3 available)");
}

} // namespace
} // namespace stap::parse_test
