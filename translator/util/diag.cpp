#include "util/diag.h"

#include <ostream>

namespace stap {

std::string format_diagnostic(Severity sev, const SourceLoc &loc,
                              const std::string &msg) {
  const char *label = sev == Severity::Error     ? "error"
                      : sev == Severity::Warning ? "warning"
                                                 : "note";
  std::string s;
  if (loc.file) {
    s += loc.file->name() + ":" + std::to_string(loc.line) + ":" +
         std::to_string(loc.col) + ": ";
  }
  s += label;
  s += ": " + msg + "\n";
  if (loc.file && loc.line) {
    std::string_view text = loc.file->line_text(loc.line);
    s += "    ";
    s += text;
    s += "\n    ";
    // Keep tabs so the caret lines up under the same column in a terminal.
    for (uint32_t i = 1; i < loc.col && i - 1 < text.size(); ++i)
      s += text[i - 1] == '\t' ? '\t' : ' ';
    s += "^\n";
  }
  return s;
}

Diagnostics::Diagnostics(std::ostream &out) : out_(out) {}

void Diagnostics::report(Severity sev, const SourceLoc &loc,
                         const std::string &msg) {
  std::string text = format_diagnostic(sev, loc, msg);
  // Code copied into several probes (alias bodies, a body split by
  // @defined) would say the same thing once per copy: say it once. A note
  // belongs to the report before it.
  if (sev == Severity::Note ? last_repeated_ : !seen_.insert(text).second) {
    last_repeated_ = true;
    return;
  }
  last_repeated_ = false;
  out_ << text;
  out_.flush();
}

void Diagnostics::error(const SourceLoc &loc, const std::string &msg) {
  ++errors_;
  report(Severity::Error, loc, msg);
}

void Diagnostics::warning(const SourceLoc &loc, const std::string &msg) {
  if (suppress_warnings_)
    return;
  if (warnings_fatal_) {
    error(loc, msg);
    return;
  }
  ++warnings_;
  report(Severity::Warning, loc, msg);
}

void Diagnostics::note(const SourceLoc &loc, const std::string &msg) {
  report(Severity::Note, loc, msg);
}

} // namespace stap
