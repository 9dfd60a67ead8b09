#include "passes/check_guru.h"

#include "ast/visitor.h"

namespace stap {

bool is_guru_function(const ast::FunctionDecl &fn) {
  auto *c = dynamic_cast<const ast::EmbeddedStmt *>(fn.body);
  return c && c->code.find("/* guru */") != std::string::npos;
}

namespace {

class GuruCalls : public ast::Visitor {
public:
  explicit GuruCalls(Diagnostics &d) : diag_(d) {}

  void visit(ast::CallExpr &n) override {
    // Any overload the call may run counts: the chain is chosen at run time.
    for (const ast::FunctionDecl *fn : n.overloads) {
      if (is_guru_function(*fn)) {
        diag_.error(n.loc, "function may not be used unless -g is specified: '" + n.name + "'");
        break;
      }
    }
    ast::Visitor::visit(n);
  }

private:
  Diagnostics &diag_;
};

} // namespace

void check_guru_calls(Program &program, bool guru_mode, Diagnostics &diag) {
  if (guru_mode)
    return;
  GuruCalls calls(diag);
  for (ast::ProbeDecl *p : program.files.front()->probes)
    calls.visit_stmt(p->body);
  for (ast::FunctionDecl *fn : program.functions)
    calls.visit_stmt(fn->body);
}

} // namespace stap
