// Source text of one script or tapset file, and positions inside it.
#pragma once
#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

namespace stap {

// One file of script text. `name` is what diagnostics print: a path,
// "<input>" for -e text, or "<stdin>".
class SourceFile {
public:
  SourceFile(std::string name, std::string text, bool privileged = false);

  const std::string &name() const { return name_; }
  const std::string &text() const { return text_; }
  // Tapset files (and -I directories) may use embedded C: SystemTap treats
  // them as guru code.
  bool privileged() const { return privileged_; }
  // The text of 1-based line `line`, without its newline.
  std::string_view line_text(uint32_t line) const;
  // 1-based line and column of byte offset `off`.
  std::pair<uint32_t, uint32_t> line_col(size_t off) const;

private:
  std::string name_, text_;
  bool privileged_;
  std::vector<size_t> line_starts_;
};

// A position in a SourceFile; file == nullptr means "no position" (for
// things synthesised by the translator itself).
struct SourceLoc {
  const SourceFile *file = nullptr;
  uint32_t line = 0, col = 0;
  explicit operator bool() const { return file != nullptr; }
};

std::shared_ptr<SourceFile> read_source_file(const std::string &path,
                                             bool privileged, std::string &err);

} // namespace stap
