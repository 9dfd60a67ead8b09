#include "passes/check_fetches.h"

#include "ast/visitor.h"

namespace stap {
namespace {

class FetchRules : public ast::Visitor {
public:
  FetchRules(const arch::Arch &a, bool guru, Diagnostics &d) : arch_(a), guru_(guru), diag_(d) {}

  void visit(ast::CallExpr &n) override {
    Visitor::visit(n);
    if ((n.name != "register" && n.name != "u_register") || n.args.size() != 1)
      return;
    auto *name = dynamic_cast<const ast::StringLit *>(n.args[0]);
    if (name && !arch::register_name(arch_, name->value).reg)
      diag_.error(name->loc, "unknown register '" + name->value + "' on " +
                                 std::string(arch_.name));
  }

  void visit(ast::AtOpExpr &n) override {
    Visitor::visit(n);
    bool reg = n.name == "kregister" || n.name == "uregister";
    bool deref = n.name == "kderef" || n.name == "uderef";
    if (!reg && !deref)
      return;
    if ((n.name == "kregister" || n.name == "kderef") && !guru_ &&
        !(n.loc.file && n.loc.file->privileged())) {
      diag_.error(n.loc, "using @" + n.name + " operator not permitted; need stap -g");
      return;
    }
    if (n.args.size() != (reg ? 1u : 2u)) {
      diag_.error(n.loc, reg ? "@" + n.name + " takes one argument: a DWARF register number"
                             : "@" + n.name + " takes two arguments: a size and an address");
      return;
    }
    auto *num = dynamic_cast<const ast::NumberLit *>(n.args[0]);
    if (reg && num && !arch::dwarf_register(arch_, static_cast<int>(num->value)))
      diag_.error(num->loc, "no DWARF register " + std::to_string(num->value) + " on " +
                                std::string(arch_.name));
    if (deref && (!num || (num->value != 1 && num->value != 2 && num->value != 4 &&
                           num->value != 8)))
      diag_.error(n.args[0]->loc, "@" + n.name + "'s size must be a literal 1, 2, 4 or 8");
  }

private:
  const arch::Arch &arch_;
  bool guru_;
  Diagnostics &diag_;
};

} // namespace

void check_fetches(Program &program, bool guru, Diagnostics &diag) {
  if (!program.arch)
    return;
  FetchRules rules(*program.arch, guru, diag);
  for (ast::ProbeDecl *p : program.files.front()->probes)
    rules.visit_stmt(p->body);
  for (ast::FunctionDecl *fn : program.functions)
    rules.visit_stmt(fn->body);
}

} // namespace stap
