#include "passes/procfs_value.h"

#include "ast/rewrite.h"

#include <set>

namespace stap::probes {
const ProbeFamily &procfs_family(); // probes/procfs.cpp
}

namespace stap {
namespace {

constexpr const char *kGet = "_procfs_value_get";

class ValueRewriter : public ast::Rewriter {
public:
  ValueRewriter(ast::Arena &arena, Diagnostics &diag, bool write)
      : arena_(arena), diag_(diag), write_(write) {}

protected:
  ast::Expr *rewrite(ast::Expr *e) override {
    if (auto *t = dynamic_cast<ast::TargetExpr *>(e); t && t->name == "$value") {
      if (!t->components.empty() || t->addressof) {
        diag_.error(t->loc, "'$value' of a procfs probe is a string: it has no members or address");
        return e;
      }
      return call(kGet, t->loc, nullptr);
    }
    // Post-order: the target was made a _procfs_value_get() call already.
    if (auto *a = dynamic_cast<ast::AssignExpr *>(e)) {
      auto *get = dynamic_cast<ast::CallExpr *>(a->target);
      if (!get || get->name != kGet || !made_.count(get))
        return e;
      // SystemTap 4.8's rules and words (checked with its -p2).
      if (write_) {
        diag_.error(a->loc, "procfs $value variable is read-only in a procfs write probe");
        return a->value; // reported: no second error about the same assignment
      }
      if (a->op == ast::AssignOp::Assign)
        return call("_procfs_value_set", a->loc, a->value);
      if (a->op == ast::AssignOp::Concat)
        return call("_procfs_value_append", a->loc, a->value);
      diag_.error(a->loc, "Only the following assign operators are implemented on procfs read "
                          "target variables: '=', '.='");
      return a->value;
    }
    return e;
  }

private:
  ast::CallExpr *call(const char *name, const SourceLoc &loc, ast::Expr *arg) {
    auto *c = arena_.make<ast::CallExpr>(loc);
    c->name = name;
    if (arg)
      c->args.push_back(arg);
    made_.insert(c);
    return c;
  }

  ast::Arena &arena_;
  Diagnostics &diag_;
  bool write_; // a write probe: $value is what was written, read-only
  std::set<const ast::CallExpr *> made_;
};

} // namespace

void rewrite_procfs_values(Program &program, ast::Arena &arena, Diagnostics &diag) {
  std::set<ast::ProbeDecl *> done;
  for (probes::ResolvedProbe &p : program.probes) {
    if (p.family != &probes::procfs_family() || !done.insert(p.decl).second)
      continue;
    ValueRewriter r(arena, diag, p.c_fields.find(".write = true") != std::string::npos);
    r.body(p.decl->body);
  }
}

} // namespace stap
