// -p1: prints a parsed file as script text that parses back to the same tree.
#pragma once
#include "ast/ast.h"

#include <iosfwd>
#include <string>

namespace stap {

void print_file(const ast::File &f, std::ostream &out);
std::string print_expr(ast::Expr &e);

} // namespace stap
