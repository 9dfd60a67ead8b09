// Diagnostics: "file:line:col: error: message", the source line, a caret.
#pragma once
#include "util/source.h"

#include <iosfwd>
#include <set>
#include <string>

namespace stap {

enum class Severity { Error, Warning, Note };

// Collects and prints diagnostics. Passes take a Diagnostics& and report
// through it; nothing else in the translator writes errors to stderr.
class Diagnostics {
public:
  explicit Diagnostics(std::ostream &out);

  void error(const SourceLoc &loc, const std::string &msg);
  void warning(const SourceLoc &loc, const std::string &msg);
  void note(const SourceLoc &loc, const std::string &msg);
  // An error that belongs to no source position (a bad option, a failed build).
  void error(const std::string &msg) { error(SourceLoc{}, msg); }

  unsigned errors() const { return errors_; }
  unsigned warnings() const { return warnings_; }
  // -w: drop warnings; -W: make them errors.
  void set_suppress_warnings(bool b) { suppress_warnings_ = b; }
  void set_warnings_fatal(bool b) { warnings_fatal_ = b; }

private:
  void report(Severity sev, const SourceLoc &loc, const std::string &msg);
  std::ostream &out_;
  unsigned errors_ = 0, warnings_ = 0;
  bool suppress_warnings_ = false, warnings_fatal_ = false;
  std::set<std::string> seen_; // errors and warnings already printed
  bool last_repeated_ = false;
};

// Formats one diagnostic exactly as Diagnostics prints it (for tests).
std::string format_diagnostic(Severity sev, const SourceLoc &loc,
                              const std::string &msg);

} // namespace stap
