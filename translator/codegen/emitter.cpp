#include "codegen/emitter.h"

#include <cstdio>

namespace stap::codegen {

void Emitter::line(std::string_view text) {
  out_.append(static_cast<size_t>(indent_), '\t');
  out_ += text;
  out_ += '\n';
}

void Emitter::open(std::string_view text) {
  line(std::string(text) + (text.empty() ? "{" : " {"));
  ++indent_;
}

void Emitter::close(std::string_view suffix) {
  --indent_;
  line("}" + std::string(suffix));
}

void Emitter::line_directive(const SourceLoc &loc) {
  if (!loc.file)
    return;
  // #line is not indented: it is a preprocessor directive.
  out_ += "#line " + std::to_string(loc.line) + " " + c_string_literal(loc.file->name()) + "\n";
}

void Emitter::comment(std::string_view text) {
  size_t start = 0;
  while (start <= text.size()) {
    size_t nl = text.find('\n', start);
    std::string_view l = text.substr(start, nl == std::string_view::npos ? text.npos : nl - start);
    std::string safe(l);
    for (size_t p; (p = safe.find("*/")) != std::string::npos;)
      safe.replace(p, 2, "* /");
    line("/* " + safe + " */");
    if (nl == std::string_view::npos)
      break;
    start = nl + 1;
  }
}

std::string c_string_literal(std::string_view s) {
  std::string r = "\"";
  for (unsigned char c : s) {
    switch (c) {
    case '"': r += "\\\""; break;
    case '\\': r += "\\\\"; break;
    case '\n': r += "\\n"; break;
    case '\t': r += "\\t"; break;
    case '\r': r += "\\r"; break;
    default:
      if (c < 0x20 || c >= 0x7f) {
        char buf[8];
        std::snprintf(buf, sizeof(buf), "\\%03o", c);
        r += buf;
      } else {
        r += static_cast<char>(c);
        // Keep "??x" from being read as a trigraph.
        if (c == '?' && r.size() >= 2 && r[r.size() - 2] == '?')
          r.insert(r.size() - 1, "\\");
      }
    }
  }
  return r + "\"";
}

std::string loc_string(const SourceLoc &loc) {
  if (!loc.file)
    return "<unknown>";
  return loc.file->name() + ":" + std::to_string(loc.line) + ":" + std::to_string(loc.col);
}

} // namespace stap::codegen
