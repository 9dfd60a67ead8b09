#include "passes/check_pragmas.h"

#include "ast/visitor.h"

#include <set>

namespace stap {
namespace {

// The functions calls may run (every overload of each call).
class CalledFunctions : public ast::Visitor {
public:
  std::set<const ast::FunctionDecl *> called;
  void visit(ast::CallExpr &n) override {
    called.insert(n.overloads.begin(), n.overloads.end());
    ast::Visitor::visit(n);
  }
};

bool says(const ast::EmbeddedStmt &c, const char *pragma) {
  return c.code.find(pragma) != std::string::npos;
}

} // namespace

void check_pragmas(Program &program, Diagnostics &diag) {
  CalledFunctions calls;
  for (ast::ProbeDecl *p : program.files.front()->probes)
    calls.visit_stmt(p->body);
  for (ast::FunctionDecl *fn : program.functions)
    calls.visit_stmt(fn->body);
  for (ast::FunctionDecl *fn : program.functions) {
    auto *c = dynamic_cast<ast::EmbeddedStmt *>(fn->body);
    if (c && calls.called.count(fn) && says(*c, "/* stable */") && !says(*c, "/* pure */"))
      diag.error(c->loc, "stable function must also be /* pure */");
  }
}

} // namespace stap
