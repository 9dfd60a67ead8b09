#include "dwarf/function_pattern.h"

#include "lang/glob.h"

#include <cctype>

namespace stap::dwarf {
namespace {

bool parse_number(std::string_view s, int64_t &out) {
  if (s.empty() || s.size() > 18)
    return false;
  out = 0;
  for (char c : s) {
    if (!std::isdigit(static_cast<unsigned char>(c)))
      return false;
    out = out * 10 + (c - '0');
  }
  return true;
}

} // namespace

std::optional<FunctionPattern> parse_function_pattern(std::string_view text, std::string &err) {
  FunctionPattern p;
  auto bad = [&](const std::string &why) {
    err = "'" + std::string(text) + "': " + why;
    return std::nullopt;
  };
  size_t at = text.find('@');
  p.function = std::string(text.substr(0, at));
  if (p.function.empty())
    return bad("no function name before '@'");
  if (at == std::string_view::npos)
    return p;
  std::string_view rest = text.substr(at + 1);
  size_t colon = rest.rfind(':');
  size_t plus = rest.rfind('+');
  if (colon != std::string_view::npos && (plus == std::string_view::npos || plus < colon)) {
    p.file = std::string(rest.substr(0, colon));
    std::string_view spec = rest.substr(colon + 1);
    size_t dash = spec.find('-');
    if (spec == "*") {
      p.lines = FunctionPattern::Lines::All;
    } else if (dash != std::string_view::npos) {
      p.lines = FunctionPattern::Lines::Range;
      if (!parse_number(spec.substr(0, dash), p.first) ||
          !parse_number(spec.substr(dash + 1), p.last) || p.last < p.first)
        return bad("bad line range '" + std::string(spec) + "'");
    } else {
      p.lines = FunctionPattern::Lines::One;
      if (!parse_number(spec, p.first))
        return bad("bad line number '" + std::string(spec) + "'");
      p.last = p.first;
    }
  } else if (plus != std::string_view::npos) {
    p.file = std::string(rest.substr(0, plus));
    p.lines = FunctionPattern::Lines::Offset;
    if (!parse_number(rest.substr(plus + 1), p.first))
      return bad("bad line offset '" + std::string(rest.substr(plus + 1)) + "'");
  } else {
    p.file = std::string(rest);
  }
  if (p.file.empty())
    return bad("no file name after '@'");
  return p;
}

bool file_matches(const std::string &pattern, const std::string &path) {
  if (lang::glob_match(pattern, path))
    return true;
  // A relative pattern names the path's tail, at a '/' boundary.
  if (!pattern.empty() && pattern[0] != '/')
    return lang::glob_match("*/" + pattern, path);
  return false;
}

bool declared_on(const FunctionPattern &pat, int64_t decl_line) {
  if (pat.lines == FunctionPattern::Lines::One || pat.lines == FunctionPattern::Lines::Range)
    return decl_line >= pat.first && decl_line <= pat.last;
  return true;
}

LineRange statement_lines(const FunctionPattern &pat, int64_t decl_line) {
  switch (pat.lines) {
  case FunctionPattern::Lines::One:
  case FunctionPattern::Lines::Range:
    return {pat.first, pat.last};
  case FunctionPattern::Lines::Offset:
    return {decl_line + pat.first, decl_line + pat.first};
  default:
    return {decl_line, INT32_MAX};
  }
}

} // namespace stap::dwarf
