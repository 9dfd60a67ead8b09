// Regular expressions: the translator's ERE compiler and the runtime's Pike
// VM (runtime/regex_vm.h, compiled for the host), checked against
// std::regex (POSIX extended grammar) and against SystemTap 4.8's results.
#include "lang/regex.h"

#include "../../runtime/regex_vm.h"

#include <gtest/gtest.h>

#include <regex>
#include <string>
#include <vector>

using namespace stap::lang;

namespace {

struct Match {
  bool ok = false;
  std::vector<std::string> groups; // "" for a group that took no part
};

Match run(const std::string &re, const std::string &subject) {
  std::string err;
  auto prog = compile_regex(re, err);
  EXPECT_TRUE(prog) << re << ": " << err;
  if (!prog)
    return {};
  std::vector<stp_rx_inst> inst;
  for (const RxInst &i : prog->inst)
    inst.push_back(stp_rx_inst{static_cast<unsigned char>(i.op), i.ch, i.x, i.y});
  std::vector<unsigned char> classes;
  for (const auto &set : prog->classes)
    classes.insert(classes.end(), set.begin(), set.end());
  stp_rx_prog p{inst.data(), static_cast<unsigned>(inst.size()), prog->nslots(),
                reinterpret_cast<const unsigned char(*)[32]>(classes.data())};
  EXPECT_EQ(prog->workspace_ints(), STP_RX_WORKSPACE_INTS(p.n, p.nslots));
  // Guard ints after the workspace catch any overrun.
  std::vector<int> ws(prog->workspace_ints() + 16, 0x5a5a5a5a);
  int caps[STP_RX_MAXSLOTS];
  Match m;
  m.ok = stp_rx_exec(&p, subject.c_str(), ws.data(), caps) != 0;
  for (size_t i = prog->workspace_ints(); i < ws.size(); ++i)
    EXPECT_EQ(ws[i], 0x5a5a5a5a) << "workspace overrun for " << re;
  if (m.ok)
    for (unsigned g = 0; g < p.nslots / 2; ++g)
      m.groups.push_back(caps[2 * g] < 0 ? ""
                                         : subject.substr(caps[2 * g], caps[2 * g + 1] - caps[2 * g]));
  return m;
}

} // namespace

TEST(Regex, AgreesWithStdRegexOnWhetherItMatches) {
  const std::vector<std::string> res = {
      "abc", "^abc$", "a.c", "a*", "^a*$", "a+b", "ab?c", "a{2}", "^a{2,3}$", "^a{2,}$",
      "(ab)+", "(a|b)*c", "^(foo|bar)baz", "[abc]+", "[^abc]", "[a-z]+[0-9]", "^[[:digit:]]+$",
      "[[:alpha:]_][[:alnum:]_]*", "[[:space:]]", "[]a]", "[a-]", "x\\.y", "\\(", "^$", "",
      "(a*)*b", "((a|b)(c|d))+e", "[[:upper:]][[:lower:]]+", "^.*$", "^(a|ab)(c|bcd)(d*)$",
      "[[:xdigit:]]{4}", "[[:punct:]]", "colou?r", "^[^ ]+ [^ ]+$"};
  const std::vector<std::string> subjects = {
      "", "a", "abc", "xabcx", "aa", "aaa", "aaaa", "ac", "abbc", "abab", "abcd", "foobaz",
      "barbaz", "bazbar", "123", "12a", "hello world", "x.y", "xzy", "(", "acbde", "Hello",
      "dead beef", "color", "colour", "]", "-", "_id9", "abcbcd", "a\tb"};
  for (const auto &re : res) {
    std::regex expect(re, std::regex::extended);
    for (const auto &s : subjects)
      EXPECT_EQ(run(re, s).ok, std::regex_search(s, expect))
          << "regex '" << re << "' on '" << s << "'";
  }
}

TEST(Regex, LeftmostLongestLikeSystemTap) {
  // The results SystemTap 4.8 gave in a guest for the same matches.
  EXPECT_EQ(run("str(ing)", "an example string").groups, (std::vector<std::string>{"string", "ing"}));
  EXPECT_EQ(run("([a-z]+)=([a-z]+)", "key=value; other=x").groups,
            (std::vector<std::string>{"key=value", "key", "value"}));
  EXPECT_EQ(run("(a)|(y)", "xyz").groups, (std::vector<std::string>{"y", "", "y"}));
  EXPECT_EQ(run("(a*)(a)", "aaaa").groups, (std::vector<std::string>{"aaaa", "aaa", "a"}));
  EXPECT_EQ(run("(abc)+", "abcabc").groups, (std::vector<std::string>{"abcabc", "abc"}));
  // Longest, not first, alternative.
  EXPECT_EQ(run("a|ab", "xab").groups, (std::vector<std::string>{"ab"}));
  EXPECT_EQ(run("(a|ab)(c|bcd)", "abcd").groups[0], "abcd");
}

TEST(Regex, RejectsInvalidExpressionsWithTheirOffset) {
  auto error_of = [](const std::string &re) {
    std::string err;
    EXPECT_FALSE(compile_regex(re, err)) << re;
    return err;
  };
  EXPECT_EQ(error_of("a(b"), "missing ')' at offset 3");
  EXPECT_EQ(error_of("a)b"), "unmatched ')' at offset 1");
  EXPECT_EQ(error_of("*a"), "nothing to repeat before '*' at offset 0");
  EXPECT_EQ(error_of("[abc"), "missing ']' at offset 4");
  EXPECT_EQ(error_of("[z-a]"), "invalid range 'z-a' at offset 2");
  EXPECT_EQ(error_of("[[:nope:]]"), "unknown character class '[:nope:]' at offset 1");
  EXPECT_EQ(error_of("a{3,1}"), "invalid repetition {3,1} at offset 6");
  EXPECT_EQ(error_of("a{x}"), "invalid repetition '{' at offset 2");
  EXPECT_EQ(error_of("a{300}"), "repetition count above 255 at offset 4");
  EXPECT_EQ(error_of("ab\\"), "trailing '\\' at offset 3");
  EXPECT_EQ(error_of("(a{255}){255}").substr(0, 28), "regular expression too large");
}

TEST(Regex, WorkIsBoundedOnPathologicalPatterns) {
  // Exponential for backtracking matchers; linear here.
  std::string s(400, 'a');
  EXPECT_FALSE(run("^(a*)*(a|b)*c$", s).ok);
  EXPECT_TRUE(run("(a|aa)*$", s).ok);
}
