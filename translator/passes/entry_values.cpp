#include "passes/entry_values.h"

#include "ast/clone.h"
#include "ast/visitor.h"

#include <map>
#include <set>

namespace stap {
namespace {

// The @entry operators of one body.
struct EntryFinder : ast::Visitor {
  std::vector<ast::AtOpExpr *> found;
  void visit(ast::AtOpExpr &n) override {
    Visitor::visit(n);
    if (n.name == "entry")
      found.push_back(&n);
  }
};

// `kernel.function("f").call` for `kernel.function("f").return[.maxactive(N)]`.
ast::ProbePoint *entry_point(ast::Arena &arena, const ast::ProbePoint &ret) {
  auto *p = arena.make<ast::ProbePoint>(ret.loc);
  for (const auto &c : ret.components) {
    if (c.functor == "maxactive")
      continue;
    p->components.push_back(c);
    if (c.functor == "return")
      p->components.back().functor = "call";
  }
  return p;
}

} // namespace

void resolve_entry_values(Program &program, ast::Arena &arena, Diagnostics &diag) {
  ast::File &script = *program.files.front();
  // Each body once, with the return probes it runs for.
  std::vector<ast::ProbeDecl *> order;
  std::map<ast::ProbeDecl *, std::vector<size_t>> points;
  for (size_t i = 0; i < program.probes.size(); ++i) {
    auto &v = points[program.probes[i].decl];
    if (v.empty())
      order.push_back(program.probes[i].decl);
    v.push_back(i);
  }
  int counter = 0;
  for (ast::ProbeDecl *decl : order) {
    EntryFinder f;
    if (decl->body)
      decl->body->accept(f);
    if (f.found.empty())
      continue;
    std::vector<probes::ResolvedProbe> returns;
    for (size_t i : points[decl])
      if (program.probes[i].is_return)
        returns.push_back(program.probes[i]);
    if (returns.size() != points[decl].size()) {
      diag.error(f.found.front()->loc, "@entry is only available in function return probes");
      continue;
    }
    for (ast::AtOpExpr *use : f.found) {
      if (use->args.size() != 1) {
        diag.error(use->loc, "@entry takes one expression");
        continue;
      }
      std::string name = "__entry_" + std::to_string(counter++);
      auto key = [&] {
        auto *sym = arena.make<ast::SymbolExpr>(use->loc);
        sym->name = name;
        auto *tid = arena.make<ast::CallExpr>(use->loc);
        tid->name = "tid";
        auto *ix = arena.make<ast::IndexExpr>(use->loc);
        ix->base = sym;
        ix->indexes.push_back(tid);
        return ix;
      };
      auto *g = arena.make<ast::GlobalDecl>(use->loc);
      g->name = name;
      g->file = script.source.get();
      g->array = true;
      // probe <each function>.call { __entry_N[tid()] = expr }
      auto *assign = arena.make<ast::AssignExpr>(use->loc);
      assign->op = "=";
      assign->target = key();
      assign->value = ast::clone_expr(arena, use->args[0]);
      auto *stmt = arena.make<ast::ExprStmt>(use->loc);
      stmt->expr = assign;
      auto *entry = arena.make<ast::ProbeDecl>(use->loc);
      entry->body = arena.make<ast::BlockStmt>(use->loc);
      entry->body->stmts.push_back(stmt);
      for (const probes::ResolvedProbe &ret : returns) {
        ast::ProbePoint *point = entry_point(arena, *ret.point);
        entry->points.push_back(point);
        size_t before = program.probes.size();
        ret.family->resolve(*entry, *point, program.probes, diag);
        for (size_t j = before; j < program.probes.size(); ++j)
          program.probes[j].pn = program.probes[j].pp;
      }
      script.globals.push_back(g);
      script.probes.push_back(entry);
      use->args[0] = key();
    }
  }
}

} // namespace stap
