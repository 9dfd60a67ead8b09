// What each tapset file defines, found by a quick scan instead of a parse.
//
// Pass 2 parses only the tapset files that define a name the program needs
// (transitively), so `stap -p2 -e 'probe begin {}'` reads no tapset at all.
// The scan runs the real lexer (parse/lexer.h) over a file and looks at the
// tokens of its top level only: `function
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
  // "tcp.**", "sys**open"), matched with SystemTap's wildcards
  // (lang::point_could_name_alias). An alias also matches a longer point it
  // is a prefix of (alias "a.b", point "a.b.return").
  std::vector<size_t> files_defining_alias(std::string_view point) const;

private:
  std::vector<FileDefs> files_;
};

} // namespace stap::tapsets
