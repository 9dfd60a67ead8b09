// Pass 1b: the preprocessor, over tokens as SystemTap's is. It expands
// script arguments ($1 pastes tokens, @1 is a string, $# / @# the count),
// records `@define` macros and expands their uses, and keeps only the chosen
// branch of each `%( cond %? ... %: ... %)` conditional.
#pragma once
#include "parse/parser.h"
#include "parse/token.h"

#include <map>
#include <memory>

namespace stap::parse {

struct Macro {
  std::vector<std::string> params;
  TokenList body;
  SourceLoc loc;
};

// Macros by name (without '@'). Library tables (.stpm files) also keep the
// files their bodies' locations point into alive.
class MacroTable {
public:
  std::map<std::string, Macro> macros;
  std::vector<std::shared_ptr<SourceFile>> sources;
};

// Rewrites `in` (ending in an End token) into the token stream the grammar
// sees. `library` may be null. Definitions found in `in` go into `local`.
TokenList preprocess(const TokenList &in, const ParseOptions &opts, MacroTable &local,
                     const MacroTable *library, Diagnostics &diag);

// Evaluates one preprocessor condition against `env` (exposed for tests):
// the tokens between `%(` and `%?`, already expanded.
bool evaluate_condition(const Token *begin, const Token *end, const PreprocessorEnv &env,
                        Diagnostics &diag);

} // namespace stap::parse
