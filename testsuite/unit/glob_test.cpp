// SystemTap's wildcards (lang/glob.h): one matcher for probe point keywords,
// the tapset index, symbols and paths. Expectations marked "4.8:" were
// checked against SystemTap 4.8's `stap -l` (Debian's /usr/bin/stap).
#include "lang/glob.h"

#include <fnmatch.h>
#include <gtest/gtest.h>

using namespace stap::lang;

TEST(Glob, OneNameAsFnmatch) {
  EXPECT_TRUE(glob_match("sys_*open*", "sys_openat"));
  EXPECT_FALSE(glob_match("sys_*x", "sys_openat"));
  EXPECT_TRUE(glob_match("rea?", "read"));
  EXPECT_FALSE(glob_match("rea?", "rea"));
  EXPECT_FALSE(glob_match("rea?", "readv"));
  EXPECT_TRUE(glob_match("re[a-d]d", "read"));
  EXPECT_TRUE(glob_match("re[!x]d", "read"));
  EXPECT_TRUE(glob_match("re[^x]d", "read"));
  EXPECT_FALSE(glob_match("re[!a]d", "read"));
  EXPECT_TRUE(glob_match("[]a]x", "]x"));     // ']' first is a member
  EXPECT_TRUE(glob_match("[!]]x", "ax"));
  EXPECT_TRUE(glob_match("a[-z]", "a-"));     // '-' first or last is a member
  EXPECT_TRUE(glob_match("v[[:digit:]]", "v4"));
  EXPECT_FALSE(glob_match("v[[:digit:]]", "vx"));
  EXPECT_TRUE(glob_match("a[b", "a[b"));      // no ']': the '[' is itself
  EXPECT_TRUE(glob_match("a\\*", "a*"));      // escaped
  EXPECT_FALSE(glob_match("a\\*", "ab"));
  EXPECT_TRUE(glob_match("*", ""));
  EXPECT_TRUE(glob_match("**", "anything/at.all"));
  EXPECT_TRUE(glob_match("*a*b*c", "xxaxxbxxbc"));
  EXPECT_FALSE(glob_match("", "a"));
}

TEST(Glob, HiddenNamesNeedADot) {
  EXPECT_FALSE(glob_match("*", ".hidden", true));
  EXPECT_FALSE(glob_match("?hidden", ".hidden", true));
  EXPECT_FALSE(glob_match("[.]hidden", ".hidden", true));
  EXPECT_TRUE(glob_match(".*", ".hidden", true));
  EXPECT_TRUE(glob_match("*", ".hidden"));
  EXPECT_TRUE(glob_match("lib*.so.?", "libc.so.6", true));
}

// The same verdicts as glibc's fnmatch(3) without flags, which the
// translator used before, over a table of patterns and names.
TEST(Glob, AgreesWithFnmatch) {
  const char *patterns[] = {"*", "?", "a*", "*a", "a?c", "[abc]*", "[!abc]*", "[a-c][x-z]",
                            "*[0-9]", "\\?", "[", "[]", "[]]", "a[!]]b", "*.*", "sys_*_at",
                            "[[:alpha:]]*", "x[[:space:][:digit:]]", "*\\*", "[a\\]]"};
  const char *names[] = {"",    "a",   "abc", "ba",  "a1",  "zz", "?",   "[",   "]",
                         "a]b", "axb", "a.b", "sys_open_at", "sys__at", "x ", "x5", "*", "a*", "\\"};
  for (const char *p : patterns)
    for (const char *n : names)
      EXPECT_EQ(glob_match(p, n), fnmatch(p, n, 0) == 0) << "'" << p << "' '" << n << "'";
}

TEST(Glob, DoubleStarReadings) {
  DoubleStarReadings r = double_star_readings("sys**open");
  EXPECT_EQ(r.one, "sys*open");
  EXPECT_EQ(r.first, "sys*");
  EXPECT_EQ(r.rest, "**open");
  EXPECT_TRUE(has_double_star("**"));
  EXPECT_FALSE(has_double_star("*x*"));
}

TEST(Glob, DottedPoints) {
  // 4.8 (its stap -l): `timer.**` lists timer.profile and
  // timer.profile.freq, never timer itself; `sys**open` lists
  // syscall.mq_open, syscall.open and syscall.perf_event_open. A script's
  // keywords hold only `*` (4.8: in `syscall.rea?` the `?` marks an optional
  // point, and `syscall.re[a-d]d` is a parse error); `?` and `[...]` reach
  // the matcher from names in strings (function("vfs_rea?")), and the
  // matcher is one for both.
  EXPECT_TRUE(point_matches("timer.**", "timer.profile.tick"));
  EXPECT_TRUE(point_matches("timer.**", "timer.ms"));
  EXPECT_FALSE(point_matches("timer.**", "timer"));
  EXPECT_TRUE(point_matches("syscall.rea?", "syscall.read"));
  EXPECT_FALSE(point_matches("syscall.rea?", "syscall.readv"));
  EXPECT_TRUE(point_matches("sys**open", "syscall.open"));
  EXPECT_TRUE(point_matches("sys**open", "syscall.mq_open"));
  EXPECT_TRUE(point_matches("**", "a.b.c"));
  EXPECT_FALSE(point_matches("*", "a.b"));
  EXPECT_TRUE(point_matches("*.*", "a.b"));
  EXPECT_TRUE(point_matches("a.**.d", "a.b.c.d"));
  EXPECT_FALSE(point_matches("a.**.d", "a.d"));
}

TEST(Glob, PointsThatCouldNameAnAlias) {
  EXPECT_TRUE(point_could_name_alias("syscall.open.return", "syscall.open"));
  EXPECT_TRUE(point_could_name_alias("syscall.rea?", "syscall.read"));
  EXPECT_TRUE(point_could_name_alias("syscall.*.return", "syscall.read"));
  EXPECT_FALSE(point_could_name_alias("syscall", "syscall.read"));
  EXPECT_TRUE(point_could_name_alias("sys**", "syscall.read"));
  EXPECT_TRUE(point_could_name_alias("**", "syscall.read"));
  EXPECT_FALSE(point_could_name_alias("nfs.**", "syscall.read"));
  EXPECT_TRUE(point_could_name_alias("tcp.**", "tcp")); // alias tcp, suffix **
}
