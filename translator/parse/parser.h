// Pass 1: turns script text into an ast::File.
#pragma once
#include "ast/ast.h"
#include "lang/version.h"
#include "util/diag.h"

#include <map>
#include <memory>
#include <string>
#include <vector>

namespace stap::parse {

// What the `%( cond %? ... %)` preprocessor conditions test.
struct PreprocessorEnv {
  std::string kernel_release;   // "6.1.0-56-amd64"
  std::string arch;             // "x86_64", "i386"
  std::map<std::string, std::string> kernel_config; // CONFIG_X -> "y"/"m"/value
  std::string systemtap_version = lang::kLanguageVersion; // `systemtap_v`, `--compatible`
  std::string privilege = "stapdev";
  bool guru_mode = false;
  std::string runtime = "kernel";
};

// `@define`s read from library macro files (*.stpm); see preprocess.h.
class MacroTable;

struct ParseOptions {
  PreprocessorEnv env;
  // Script arguments for $1/@1/$#/@#.
  std::vector<std::string> script_args;
  // Macros every file may use (the tapset library's .stpm files), or null.
  std::shared_ptr<const MacroTable> library_macros;
};

// Parses `src` (a user script or a tapset file; src->privileged() marks
// tapsets). Nodes go into `arena`; errors go to `diag`. Returns the file
// even when there were errors (with what could be parsed), so callers check
// diag.errors().
std::unique_ptr<ast::File> parse_file(std::shared_ptr<SourceFile> src,
                                      ast::Arena &arena, Diagnostics &diag,
                                      const ParseOptions &opts);

// Reads a library macro file (*.stpm: `@define`s, possibly inside
// preprocessor conditionals, and nothing else) into `into`, which keeps
// `src` alive for the macros' source locations.
void load_macro_file(std::shared_ptr<SourceFile> src, MacroTable &into, Diagnostics &diag,
                     const ParseOptions &opts);

} // namespace stap::parse
