#include "util/source.h"

#include <algorithm>
#include <fstream>
#include <sstream>

namespace stap {

SourceFile::SourceFile(std::string name, std::string text, bool privileged)
    : name_(std::move(name)), text_(std::move(text)), privileged_(privileged) {
  line_starts_.push_back(0);
  for (size_t i = 0; i < text_.size(); ++i)
    if (text_[i] == '\n')
      line_starts_.push_back(i + 1);
}

std::string_view SourceFile::line_text(uint32_t line) const {
  if (line == 0 || line > line_starts_.size())
    return {};
  size_t b = line_starts_[line - 1];
  size_t e = text_.find('\n', b);
  if (e == std::string::npos)
    e = text_.size();
  return std::string_view(text_).substr(b, e - b);
}

std::pair<uint32_t, uint32_t> SourceFile::line_col(size_t off) const {
  auto it = std::upper_bound(line_starts_.begin(), line_starts_.end(), off);
  size_t line = static_cast<size_t>(it - line_starts_.begin());
  return {static_cast<uint32_t>(line),
          static_cast<uint32_t>(off - line_starts_[line - 1] + 1)};
}

std::shared_ptr<SourceFile> read_source_file(const std::string &path,
                                             bool privileged, std::string &err) {
  std::ifstream in(path, std::ios::binary);
  if (!in) {
    err = "cannot open '" + path + "'";
    return nullptr;
  }
  std::ostringstream ss;
  ss << in.rdbuf();
  return std::make_shared<SourceFile>(path, ss.str(), privileged);
}

} // namespace stap
