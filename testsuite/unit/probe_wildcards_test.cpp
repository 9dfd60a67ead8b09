// Keyword wildcards over the families' point shapes, `**` as SystemTap 4.8
// reads it, and the function names of a module's .ko file.
#include "probes/wildcards.h"
#include "symtab/module_symbols.h"

#include <filesystem>
#include <gtest/gtest.h>

namespace stap::probes {
namespace {

// Components from "timer.m*(5)"-like text: a "(N)" argument is a number,
// "(\"s\")" a string.
struct PointText {
  std::vector<std::unique_ptr<ast::Expr>> args;
  Components parse(const std::string &text) {
    Components cs;
    size_t pos = 0;
    while (pos <= text.size()) {
      size_t end = pos, depth = 0;
      while (end < text.size() && (depth || text[end] != '.')) {
        depth += text[end] == '(';
        depth -= text[end] == ')';
        ++end;
      }
      std::string c = text.substr(pos, end - pos);
      ast::ProbePointComponent pc;
      size_t open = c.find('(');
      pc.functor = c.substr(0, open);
      if (open != std::string::npos) {
        std::string a = c.substr(open + 1, c.size() - open - 2);
        if (a[0] == '"') {
          auto s = std::make_unique<ast::StringLit>();
          s->value = a.substr(1, a.size() - 2);
          pc.arg = s.get();
          args.push_back(std::move(s));
        } else {
          auto n = std::make_unique<ast::NumberLit>();
          n->value = std::stoll(a);
          pc.arg = n.get();
          args.push_back(std::move(n));
        }
      }
      cs.push_back(pc);
      pos = end + 1;
    }
    return cs;
  }
};

std::vector<std::string> expand(const std::string &text) {
  PointText t;
  std::vector<std::string> out;
  for (const Components &cs : expand_family_keywords(t.parse(text))) {
    ast::ProbePoint p;
    p.components = cs;
    out.push_back(probe_point_string(p));
  }
  return out;
}

TEST(ProbeWildcards, KeywordsMatchShapesWithTheSameArgumentKind) {
  EXPECT_EQ(expand("timer.m*(5)"), (std::vector<std::string>{"timer.ms(5)", "timer.msec(5)"}));
  // timer.profile is the one timer keyword without an argument (4.8 lists it too)
  EXPECT_EQ(expand("timer.*"), std::vector<std::string>{"timer.profile"});
  EXPECT_EQ(expand("b*"), std::vector<std::string>{"begin"});
  EXPECT_EQ(expand("b*(3)"), std::vector<std::string>{"begin(3)"});
  EXPECT_EQ(expand("kprobe.function(\"f\").*"),
            (std::vector<std::string>{"kprobe.function(\"f\").call",
                                      "kprobe.function(\"f\").return"}));
}

TEST(ProbeWildcards, DoubleStarIsOneOrMoreComponents) {
  EXPECT_EQ(expand("e**"), (std::vector<std::string>{"end", "error"}));
  EXPECT_EQ(expand("kernel.**"), std::vector<std::string>{});  // function needs its name
  EXPECT_EQ(expand("kernel.function(\"f\").**"),
            (std::vector<std::string>{"kernel.function(\"f\").call",
                                      "kernel.function(\"f\").return"}));
  EXPECT_EQ(expand("kprobe.**.return"),
            std::vector<std::string>{}); // `**` does not fill in an argument
  EXPECT_EQ(expand("timer.ms(1).**"), std::vector<std::string>{});
}

TEST(ProbeWildcards, DoubleStarReadings) {
  PointText t;
  auto readings = double_star_readings(t.parse("sys**open"), 0);
  ASSERT_EQ(readings.size(), 2u);
  ASSERT_EQ(readings[0].size(), 1u);
  EXPECT_EQ(readings[0][0].functor, "sys*open");
  ASSERT_EQ(readings[1].size(), 2u);
  EXPECT_EQ(readings[1][0].functor, "sys*");
  EXPECT_EQ(readings[1][1].functor, "**open");
}

} // namespace
} // namespace stap::probes

namespace stap::symtab {
namespace {

// A module of the installed kernel: its functions come from its .ko.
TEST(ModuleSymbols, FunctionsOfAnInstalledModule) {
  std::string release;
  for (const auto &e : std::filesystem::directory_iterator("/lib/modules"))
    if (std::filesystem::exists(e.path() / "kernel/fs/9p/9p.ko"))
      release = e.path().filename().string();
  if (release.empty())
    GTEST_SKIP() << "no installed kernel with fs/9p/9p.ko";
  std::string error;
  auto mods = module_functions(release, "9*", error);
  ASSERT_FALSE(mods.empty()) << error;
  const ModuleFunctions *p9 = nullptr;
  for (const auto &m : mods)
    if (m.module == "9p")
      p9 = &m;
  ASSERT_NE(p9, nullptr);
  auto has = [&](const std::string &f) {
    return std::binary_search(p9->functions.begin(), p9->functions.end(), f);
  };
  EXPECT_TRUE(has("v9fs_vfs_lookup"));  // a static function: in .symtab
  EXPECT_FALSE(has("init_v9fs"));       // __init: freed after loading
}

} // namespace
} // namespace stap::symtab
