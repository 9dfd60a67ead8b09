#include "lang/printf_format.h"

#include <cctype>
#include <cstring>

namespace stap::lang {
namespace {

// Whether `ch` is one of `set`: not strchr alone, which finds a NUL (a
// format may hold one: "\000") as the set's terminator.
bool one_of(char ch, const char *set) { return ch && std::strchr(set, ch); }

// The kernel's vsnprintf keeps 23 bits of a field width and 15 of a
// precision (FIELD_WIDTH_MAX, PRECISION_MAX): a larger literal one would
// come out truncated to garbage, so it is clamped. Output is cut at the
// print buffer (8 KB) long before, so a clamped width prints the same.
constexpr unsigned long kMaxWidth = (1ul << 23) - 1, kMaxPrecision = (1ul << 15) - 1;

void clamp_number(std::string &digits, unsigned long max) {
  if (digits.empty() || digits == "*")
    return;
  size_t nz = digits.find_first_not_of('0');
  std::string sig = nz == std::string::npos ? "0" : digits.substr(nz);
  if (sig.size() > 9 || std::stoul(sig) > max)
    sig = std::to_string(max);
  digits = sig;
}

} // namespace

std::optional<ParsedFormat> parse_format(std::string_view fmt, std::string &err) {
  ParsedFormat r;
  std::string text;
  size_t i = 0;
  auto flush_text = [&] {
    if (!text.empty())
      r.pieces.push_back(FormatPiece{text, {}});
    text.clear();
  };
  while (i < fmt.size()) {
    char ch = fmt[i++];
    if (ch != '%') {
      text += ch;
      continue;
    }
    if (i >= fmt.size()) {
      err = "incomplete conversion at the end of the format";
      return std::nullopt;
    }
    if (fmt[i] == '%') {
      text += '%';
      ++i;
      continue;
    }
    FormatConversion c;
    while (i < fmt.size() && one_of(fmt[i], "-+ #0"))
      c.flags += fmt[i++];
    // SystemTap 4.8 reads one flag character and then the width, so a '0'
    // after another flag is a leading zero of the width, not zero padding:
    // `%#05x` of 10 is "  0xa" there (checked in a guest), "0x00a" in C.
    if (c.flags.size() > 1)
      c.flags = c.flags[0] + [&] {
        std::string rest;
        for (char f : c.flags.substr(1))
          if (f != '0')
            rest += f;
        return rest;
      }();
    auto number_or_star = [&](std::string &out) {
      if (i < fmt.size() && fmt[i] == '*') {
        out = "*";
        ++i;
        r.arg_types.push_back(ast::Type::Long);
        return;
      }
      while (i < fmt.size() && std::isdigit(static_cast<unsigned char>(fmt[i])))
        out += fmt[i++];
    };
    number_or_star(c.width);
    if (i < fmt.size() && fmt[i] == '.') {
      ++i;
      number_or_star(c.precision);
      if (c.precision.empty())
        c.precision = "0";
    }
    // Length modifiers are accepted and ignored: every number is 64-bit.
    while (i < fmt.size() && one_of(fmt[i], "hlLjzt"))
      ++i;
    if (i >= fmt.size()) {
      err = "incomplete conversion at the end of the format";
      return std::nullopt;
    }
    c.conv = fmt[i++];
    switch (c.conv) {
    case 'd': case 'i': case 'u': case 'o': case 'x': case 'X': case 'c':
      r.arg_types.push_back(ast::Type::Long);
      break;
    case 's':
      r.arg_types.push_back(ast::Type::String);
      break;
    case 'p': case 'm': case 'M':
      r.arg_types.push_back(ast::Type::Long);
      break;
    case 'b':
      // The width is the number of bytes written.
      if (!c.width.empty() && c.width != "1" && c.width != "2" && c.width != "4" &&
          c.width != "8") {
        err = "invalid width '" + c.width + "' for '%b' (1, 2, 4 or 8 bytes)";
        return std::nullopt;
      }
      r.arg_types.push_back(ast::Type::Long);
      break;
    default:
      err = std::string("invalid conversion '%") + c.conv + "' in format";
      return std::nullopt;
    }
    clamp_number(c.width, kMaxWidth);
    clamp_number(c.precision, kMaxPrecision);
    flush_text();
    r.pieces.push_back(FormatPiece{{}, c});
  }
  flush_text();
  return r;
}

} // namespace stap::lang
