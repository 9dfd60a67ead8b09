#include "lang/glob.h"

#include <cctype>
#include <functional>

namespace stap::lang {
namespace {

// `[:name:]` at p[i] (just after the '['): its test and length, if it is one.
bool char_class(std::string_view p, size_t i, std::function<bool(unsigned char)> &test, size_t &len) {
  static const struct {
    std::string_view name;
    int (*fn)(int);
  } classes[] = {{"alnum", isalnum}, {"alpha", isalpha}, {"blank", isblank}, {"cntrl", iscntrl},
                 {"digit", isdigit}, {"graph", isgraph}, {"lower", islower}, {"print", isprint},
                 {"punct", ispunct}, {"space", isspace}, {"upper", isupper}, {"xdigit", isxdigit}};
  if (p.substr(i, 2) != "[:")
    return false;
  size_t end = p.find(":]", i + 2);
  if (end == std::string_view::npos)
    return false;
  std::string_view name = p.substr(i + 2, end - i - 2);
  for (const auto &c : classes)
    if (c.name == name) {
      auto fn = c.fn;
      test = [fn](unsigned char ch) { return ch < 128 && fn(ch) != 0; };
      len = end + 2 - i;
      return true;
    }
  return false;
}

// A bracket expression starting at p[i] == '['. Sets `matched` for `ch` and
// returns the index after its ']'; npos when there is no closing ']' (the
// '[' is then an ordinary character).
size_t bracket(std::string_view p, size_t i, unsigned char ch, bool &matched) {
  size_t j = i + 1;
  bool negate = j < p.size() && (p[j] == '!' || p[j] == '^');
  if (negate)
    ++j;
  bool hit = false, first = true;
  for (;;) {
    if (j >= p.size())
      return std::string_view::npos;
    if (p[j] == ']' && !first)
      break;
    first = false;
    std::function<bool(unsigned char)> test;
    size_t len;
    if (char_class(p, j, test, len)) {
      hit = hit || test(ch);
      j += len;
      continue;
    }
    unsigned char lo = static_cast<unsigned char>(p[j]);
    if (lo == '\\' && j + 1 < p.size())
      lo = static_cast<unsigned char>(p[++j]);
    ++j;
    unsigned char hi = lo;
    if (j + 1 < p.size() && p[j] == '-' && p[j + 1] != ']') {
      hi = static_cast<unsigned char>(p[j + 1]);
      j += 2;
      if (hi == '\\' && j < p.size())
        hi = static_cast<unsigned char>(p[j++]);
    }
    hit = hit || (lo <= ch && ch <= hi);
  }
  matched = hit != negate;
  return j + 1;
}

// Matches the single-character element at p[pi] (not '*') against `ch`;
// returns the index after the element, or npos when it does not match.
size_t match_element(std::string_view p, size_t pi, unsigned char ch, bool leading_hidden) {
  char c = p[pi];
  if (c == '?')
    return leading_hidden ? std::string_view::npos : pi + 1;
  if (c == '[') {
    bool matched = false;
    size_t next = bracket(p, pi, ch, matched);
    if (next != std::string_view::npos)
      return matched && !leading_hidden ? next : std::string_view::npos;
    return ch == '[' ? pi + 1 : std::string_view::npos;
  }
  if (c == '\\' && pi + 1 < p.size())
    return static_cast<unsigned char>(p[pi + 1]) == ch ? pi + 2 : std::string_view::npos;
  return static_cast<unsigned char>(c) == ch ? pi + 1 : std::string_view::npos;
}

// `pattern` from p against `name` from n, component lists.
bool match_components(std::vector<std::string> p, size_t i, const std::vector<std::string_view> &n,
                      size_t j, bool prefix_ok);

bool match_components(std::vector<std::string> p, size_t i, const std::vector<std::string_view> &n,
                      size_t j, bool prefix_ok) {
  for (;;) {
    if (i == p.size())
      return j == n.size();
    if (j == n.size())
      return prefix_ok && j > 0; // the rest of the pattern: suffixes of the name
    if (has_double_star(p[i])) {
      DoubleStarReadings r = double_star_readings(p[i]);
      std::vector<std::string> one = p, two = p;
      one[i] = r.one;
      two[i] = r.first;
      two.insert(two.begin() + static_cast<std::ptrdiff_t>(i) + 1, r.rest);
      return match_components(std::move(one), i, n, j, prefix_ok) ||
             match_components(std::move(two), i, n, j, prefix_ok);
    }
    if (!glob_match(p[i], n[j]))
      return false;
    ++i, ++j;
  }
}

std::vector<std::string> owned(const std::vector<std::string_view> &v) {
  return std::vector<std::string>(v.begin(), v.end());
}

} // namespace

bool has_glob(std::string_view s) { return s.find_first_of("*?[") != std::string_view::npos; }

bool glob_match(std::string_view p, std::string_view n, bool hidden_needs_dot) {
  // Iterative, backtracking to the last '*' only: every other element
  // consumes exactly one character, so one restart point is enough.
  size_t pi = 0, ni = 0, star = std::string_view::npos, mark = 0;
  bool hidden = hidden_needs_dot && !n.empty() && n[0] == '.';
  while (ni < n.size()) {
    bool leading_hidden = hidden && ni == 0;
    if (pi < p.size() && p[pi] == '*' && !leading_hidden) {
      star = pi++;
      mark = ni;
      continue;
    }
    size_t next = pi < p.size() && p[pi] != '*'
                      ? match_element(p, pi, static_cast<unsigned char>(n[ni]), leading_hidden)
                      : std::string_view::npos;
    if (next != std::string_view::npos) {
      pi = next;
      ++ni;
    } else if (star != std::string_view::npos) {
      pi = star + 1;
      ni = ++mark;
    } else {
      return false;
    }
  }
  while (pi < p.size() && p[pi] == '*')
    ++pi;
  return pi == p.size();
}

bool has_double_star(std::string_view component) {
  return component.find("**") != std::string_view::npos;
}

DoubleStarReadings double_star_readings(std::string_view c) {
  size_t at = c.find("**");
  std::string before(c.substr(0, at)), after(c.substr(at + 2));
  return {before + "*" + after, before + "*", "**" + after};
}

std::vector<std::string_view> split_dotted(std::string_view s) {
  std::vector<std::string_view> out;
  size_t start = 0;
  for (;;) {
    size_t dot = s.find('.', start);
    out.push_back(s.substr(start, dot == std::string_view::npos ? std::string_view::npos : dot - start));
    if (dot == std::string_view::npos)
      return out;
    start = dot + 1;
  }
}

bool point_matches(std::string_view pattern, std::string_view name) {
  return match_components(owned(split_dotted(pattern)), 0, split_dotted(name), 0, false);
}

bool point_could_name_alias(std::string_view point, std::string_view alias) {
  return match_components(owned(split_dotted(point)), 0, split_dotted(alias), 0, true);
}

} // namespace stap::lang
