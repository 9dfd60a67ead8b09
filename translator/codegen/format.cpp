#include "codegen/format.h"

#include <cctype>
#include <cstring>

namespace stap::codegen {

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
    while (i < fmt.size() && std::strchr("-+ #0", fmt[i]))
      c.flags += fmt[i++];
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
    while (i < fmt.size() && std::strchr("hlLjzt", fmt[i]))
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
    case 'p': case 'b': case 'm': case 'M':
      err = std::string("conversion '%") + c.conv + "' is not supported yet";
      return std::nullopt;
    default:
      err = std::string("invalid conversion '%") + c.conv + "' in format";
      return std::nullopt;
    }
    flush_text();
    r.pieces.push_back(FormatPiece{{}, c});
  }
  flush_text();
  return r;
}

KernelFormat kernel_format(const ParsedFormat &f) {
  KernelFormat k;
  for (const FormatPiece &p : f.pieces) {
    const FormatConversion &c = p.conv;
    if (!c.conv) {
      for (char ch : p.text) {
        if (ch == '%')
          k.format += '%';
        k.format += ch;
      }
      continue;
    }
    k.format += '%' + c.flags + c.width;
    if (c.width == "*")
      k.casts.push_back("(int)");
    if (!c.precision.empty()) {
      k.format += '.' + c.precision;
      if (c.precision == "*")
        k.casts.push_back("(int)");
    }
    switch (c.conv) {
    case 'd': case 'i': k.format += "lld"; k.casts.push_back("(long long)"); break;
    case 'u': case 'o': case 'x': case 'X':
      k.format += "ll";
      k.format += c.conv;
      k.casts.push_back("(unsigned long long)");
      break;
    case 'c': k.format += 'c'; k.casts.push_back("(int)"); break;
    case 's': k.format += 's'; k.casts.push_back(""); break;
    }
  }
  return k;
}

} // namespace stap::codegen
