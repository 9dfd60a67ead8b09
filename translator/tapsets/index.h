// What each tapset file defines, found by a quick scan instead of a parse.
//
// Pass 2 parses only the tapset files that define a name the program needs
// (transitively), so `stap -p2 -e 'probe begin {}'` reads no tapset at all.
// The scan tokenizes a file and looks at its top level only: `function
// NAME (...)`, `global A, B[...]`, `probe X.Y = ...` / `probe X.Y += ...`;
// both branches of `%( %? %: %)` count. `private` names are left out: no
// other file can use them. A file the scanner cannot follow (unbalanced
// braces) is marked `always`, and is parsed whenever anything is needed.
#pragma once
#include <string>
#include <string_view>
#include <vector>

namespace stap::tapsets {

struct FileDefs {
  std::string path;
  struct Function {
    std::string name;
    int arity;
  };
  std::vector<Function> functions;
  std::vector<std::string> globals;
  std::vector<std::string> aliases; // dotted names without arguments: "syscall.open"
  bool always = false;              // could not be scanned: load whenever needed
};

// Scans one file's text.
FileDefs scan_tapset(std::string path, std::string_view text);

// The index of a search path: one entry per file, in search order.
class TapsetIndex {
public:
  void add(FileDefs defs) { files_.push_back(std::move(defs)); }
  const std::vector<FileDefs> &files() const { return files_; }

  // Positions (in files()) of the files defining a function or global.
  std::vector<size_t> files_defining_symbol(std::string_view name) const;
  // Positions of the files defining an alias that `point` could name:
  // `point` is a dotted probe point without arguments ("syscall.*.return",
  // "tcp.**"), matched component by component with `*` wildcards; `**`
  // matches any number of components. An alias also matches a longer
  // point it is a prefix of (alias "a.b", point "a.b.return").
  std::vector<size_t> files_defining_alias(std::string_view point) const;

private:
  std::vector<FileDefs> files_;
};

// Whether probe point `point` (dotted, no arguments, wildcards allowed)
// could name alias `alias`, possibly followed by suffixes.
bool point_could_name_alias(std::string_view point, std::string_view alias);

// Glob match of one probe point component (`*` only), as probe points use it.
bool component_matches(std::string_view pattern, std::string_view name);

} // namespace stap::tapsets
