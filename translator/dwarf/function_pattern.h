// The function part of a DWARF probe point, as SystemTap spells it:
//   NAME[@FILE[:LINE | :FIRST-LAST | :* | +OFFSET]]
// NAME and FILE may hold wildcards (lang/glob.h); FILE matches a source path
// by its tail ("fs/read_write.c" or "read_write.c" or "*/read*.c").
#pragma once
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace stap::dwarf {

struct FunctionPattern {
  std::string function = "*"; // "vfs_*"
  std::string file;           // "" for any
  enum class Lines : uint8_t {
    None,   // the function itself
    One,    // :LINE
    Range,  // :FIRST-LAST
    All,    // :*
    Offset, // +OFFSET: relative to the function's declaration line
  } lines = Lines::None;
  int64_t first = 0, last = 0; // One: first == last; Offset: first is the offset

  bool has_file() const { return !file.empty(); }
};

// The pattern in `text`, or nullopt with `err` set ("'f@x.c:abc': bad line
// number").
std::optional<FunctionPattern> parse_function_pattern(std::string_view text, std::string &err);

// Whether source path `path` is what a pattern's FILE names.
bool file_matches(const std::string &pattern, const std::string &path);

// function(PATTERN): whether a function declared on `decl_line` is one
// the pattern's :LINE or :FIRST-LAST names (without lines, any is).
bool declared_on(const FunctionPattern &pat, int64_t decl_line);

// statement(PATTERN): the source lines [first, last] it names in a
// function declared on `decl_line` (+OFFSET counts from there; without
// lines, or with :*, from there to the end).
struct LineRange {
  int64_t first = 0, last = 0;
};
LineRange statement_lines(const FunctionPattern &pat, int64_t decl_line);

} // namespace stap::dwarf
