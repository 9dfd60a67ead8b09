// What pass 2 hands to pass 3: the parsed files and the resolved probes.
#pragma once
#include "ast/ast.h"
#include "probes/family.h"

#include <memory>
#include <vector>

namespace stap {

struct Program {
  std::vector<std::unique_ptr<ast::File>> files; // files[0]: the user script
  std::vector<probes::ResolvedProbe> probes;
};

} // namespace stap
