// Which globals a body reads and writes, through the functions it calls
// too: the handler takes exactly those locks.
#pragma once
#include "ast/ast.h"

#include <map>

namespace stap::codegen {

// true = written (a write lock), false = only read.
using GlobalUse = std::map<ast::GlobalDecl *, bool>;

class GlobalUseAnalysis {
public:
  const GlobalUse &of_function(ast::FunctionDecl &fn);
  GlobalUse of_body(ast::Stmt *body);

private:
  std::map<ast::FunctionDecl *, GlobalUse> done_;
};

} // namespace stap::codegen
