#include "lang/builtins.h"

namespace stap::lang {

const Builtin *find_builtin(std::string_view name) {
  static const Builtin table[] = {
      {"print", 1, -1, ast::Type::Unknown, false},
      {"println", 0, -1, ast::Type::Unknown, false},
      {"printf", 1, -1, ast::Type::Unknown, true},
      {"exit", 0, 0, ast::Type::Unknown, false, true},
      {"sprintf", 1, -1, ast::Type::String, true},
      {"sprint", 1, -1, ast::Type::String, false},
      {"sprintln", 0, -1, ast::Type::String, false},
      // A literal delimiter and at least two values.
      {"printd", 3, -1, ast::Type::Unknown, false},
      {"printdln", 3, -1, ast::Type::Unknown, false},
      {"sprintd", 3, -1, ast::Type::String, false},
      {"sprintdln", 3, -1, ast::Type::String, false},
  };
  for (const Builtin &b : table)
    if (b.name == name)
      return &b;
  return nullptr;
}

bool is_delimited_print(std::string_view name) {
  return name == "printd" || name == "printdln" || name == "sprintd" || name == "sprintdln";
}

} // namespace stap::lang
