#include "passes/user_modules.h"

#include "ast/rewrite.h"


namespace stap {
namespace {

class DefaultModule : public ast::Rewriter {
public:
  DefaultModule(ast::Arena &a, std::string object) : arena_(a), object_(std::move(object)) {}

protected:
  using Rewriter::rewrite;
  ast::Expr *rewrite(ast::Expr *e) override {
    auto *c = dynamic_cast<ast::CastExpr *>(e);
    if (!c || c->module)
      return e;
    if (c->kind == ast::CastExpr::Var && c->type_or_var.find('@') == std::string::npos) {
      auto *t = arena_.make<ast::TargetExpr>(c->loc);
      t->name = "$" + c->type_or_var;
      t->components = c->components;
      t->addressof = c->addressof;
      return t;
    }
    c->module = object_;
    return e;
  }

private:
  ast::Arena &arena_;
  std::string object_;
};

} // namespace

void default_user_modules(Program &program, ast::Arena &arena) {
  for (auto &[decl, points] : points_by_decl(program)) {
    // One object for every point (a probe on two programs keeps the kernel
    // default: which program would it be?).
    std::string object;
    for (const probes::ResolvedProbe *rp : points) {
      std::string o = rp->scope ? rp->scope->user_object : "";
      if (o.empty() || (!object.empty() && o != object)) {
        object.clear();
        break;
      }
      object = o;
    }
    if (object.empty() || !decl->body)
      continue;
    DefaultModule d(arena, object);
    d.body(decl->body);
  }
}

} // namespace stap
