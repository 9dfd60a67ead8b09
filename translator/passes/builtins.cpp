#include "passes/builtins.h"

namespace stap {

const Builtin *find_builtin(std::string_view name) {
  static const Builtin table[] = {
      {"print", 1, -1, ast::Type::Unknown, false},
      {"println", 0, -1, ast::Type::Unknown, false},
      {"printf", 1, -1, ast::Type::Unknown, true},
      {"exit", 0, 0, ast::Type::Unknown, false},
      {"sprintf", 1, -1, ast::Type::String, true},
      {"sprint", 1, -1, ast::Type::String, false},
      {"sprintln", 0, -1, ast::Type::String, false},
  };
  for (const Builtin &b : table)
    if (b.name == name)
      return &b;
  return nullptr;
}

} // namespace stap
