// Small helpers for writing readable C: indentation, blocks, #line.
// Generated code goes through these, never through ad hoc string pushes.
#pragma once
#include "util/source.h"

#include <string>
#include <string_view>

namespace stap::codegen {

class Emitter {
public:
  // One line at the current indentation.
  void line(std::string_view text);
  void blank() { out_ += '\n'; }
  // A line at column 0 whatever the indentation (labels, directives).
  void raw_line(std::string_view text) {
    out_ += text;
    out_ += '\n';
  }
  // "text {" and indent; close() undoes it ("}" + suffix, e.g. ";").
  void open(std::string_view text);
  void close(std::string_view suffix = "");
  // `#line N "file"` so compiler messages and debuggers point at the script.
  void line_directive(const SourceLoc &loc);
  // A block comment, one line per line of `text`.
  void comment(std::string_view text);

  const std::string &str() const { return out_; }

private:
  std::string out_;
  int indent_ = 0;
};

// `s` as a C string literal, quotes included.
std::string c_string_literal(std::string_view s);
// "file:line:col" of `loc`, for run-time error messages.
std::string loc_string(const SourceLoc &loc);

} // namespace stap::codegen
