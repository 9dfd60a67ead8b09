// Functions the language itself provides (no tapset defines them): the
// print family, which SystemTap builds into the language, and exit(); their
// arities and value types.
#pragma once
#include "ast/ast.h"

#include <string_view>

namespace stap::lang {

struct Builtin {
  std::string_view name;
  int min_args, max_args; // max -1: any number
  ast::Type result;       // Unknown: no value
  bool format;            // first argument is a printf format literal
  // SystemTap defines it in a tapset (exit): -p2 lists it among the
  // functions when it is called, as SystemTap 4.8 does.
  bool listed_as_function = false;
};

const Builtin *find_builtin(std::string_view name);
// printd, printdln, sprintd, sprintdln: the first argument is the delimiter.
bool is_delimited_print(std::string_view name);

} // namespace stap::lang
