#include "passes/entry_values.h"

#include "ast/clone.h"
#include "ast/rewrite.h"
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

// In a return probe whose family snapshots target variables at entry:
// `$x`, `$p->f`, `$$parms` become `@entry($x)`..., not $return/$$return
// or $$name, nor a use already inside @entry.
class SnapshotAtEntry : public ast::Rewriter {
public:
  explicit SnapshotAtEntry(ast::Arena &arena) : arena_(arena) {}

protected:
  ast::Expr *rewrite(ast::Expr *e) override {
    if (auto *t = dynamic_cast<ast::TargetExpr *>(e)) {
      // $$name of a .plt return probe is its PLT entry's symbol, the
      // same at entry and return.
      if (t->name == "$return" || t->name == "$$return" || t->name == "$$name")
        return e;
      auto *at = arena_.make<ast::AtOpExpr>(t->loc);
      at->name = "entry";
      at->args.push_back(t);
      made_.push_back(at);
      return at;
    }
    // @entry($x): the user's own, not wrapped twice
    if (auto *at = dynamic_cast<ast::AtOpExpr *>(e); at && at->name == "entry")
      for (ast::Expr *&arg : at->args)
        if (auto *inner = dynamic_cast<ast::AtOpExpr *>(arg); inner && is_made(inner))
          arg = inner->args[0];
    return e;
  }

private:
  bool is_made(const ast::AtOpExpr *a) const {
    for (const ast::AtOpExpr *m : made_)
      if (m == a)
        return true;
    return false;
  }
  ast::Arena &arena_;
  std::vector<const ast::AtOpExpr *> made_;
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

// A name several kernel functions share resolves to one probe per copy,
// the same but for the address. An entry part is never registered (it
// runs as its return probe's entry handler, at whichever copy that is),
// so the first of them serves: the others, from `first` on, are dropped.
void drop_other_copies(std::vector<probes::ResolvedProbe> &probes, size_t first) {
  if (probes.size() <= first + 1)
    return;
  for (size_t i = first + 1; i < probes.size(); ++i)
    if (probes[i].pp != probes[first].pp)
      return; // not copies: reported as no single entry point
  probes.erase(probes.begin() + first + 1, probes.end());
}

} // namespace

// @entry(expr) in a return probe: `expr` is evaluated when the function is
// entered, by a synthesized entry probe that the kretprobe runs as its
// entry handler, and kept in that call's kretprobe instance data. So each
// call (recursive ones too) sees its own value, nothing outlives the call,
// and a return whose entry did not run (the session was not running yet,
// the CPU was busy in another probe) is skipped rather than run with no
// value, as SystemTap does.
void resolve_entry_values(const probes::ResolveEnv &env, Program &program, ast::Arena &arena, Diagnostics &diag) {
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
  std::vector<std::pair<size_t, size_t>> return_entry; // probe indexes
  for (ast::ProbeDecl *decl : order) {
    bool snapshots = decl->body != nullptr;
    for (size_t i : points[decl])
      snapshots = snapshots && program.probes[i].is_return &&
                  program.probes[i].family->snapshots_return_vars();
    if (snapshots) {
      SnapshotAtEntry rewrite(arena);
      rewrite.body(decl->body);
    }
    EntryFinder f;
    if (decl->body)
      decl->body->accept(f);
    if (f.found.empty())
      continue;
    bool all_returns = true;
    for (size_t i : points[decl])
      all_returns = all_returns && program.probes[i].is_return;
    if (!all_returns) {
      diag.error(f.found.front()->loc, "@entry is only available in function return probes");
      continue;
    }
    const probes::ResolvedProbe *unsupported = nullptr;
    for (size_t i : points[decl])
      if (!program.probes[i].family->has_entry_values())
        unsupported = &program.probes[i];
    if (unsupported) {
      diag.error(f.found.front()->loc,
                 "@entry is not supported in '" + unsupported->pp + "' yet (kernel return probes only)");
      continue;
    }
    // probe <the function>.call { __entry_0 = expr0; __entry_1 = expr1 ... }
    auto *entry = arena.make<ast::ProbeDecl>(decl->loc);
    entry->body = arena.make<ast::BlockStmt>(decl->loc);
    for (ast::AtOpExpr *use : f.found) {
      if (use->args.size() != 1) {
        diag.error(use->loc, "@entry takes one expression");
        continue;
      }
      auto *slot = arena.make<ast::GlobalDecl>(use->loc);
      slot->name = "__entry_" + std::to_string(program.entry_slots.size());
      slot->file = script.source.get();
      slot->entry_slot = true;
      program.entry_slots.push_back(slot);
      // Bound here: symbol resolution leaves bound names alone, and the
      // slot is in no file's globals for a script name to reach.
      auto ref = [&] {
        auto *sym = arena.make<ast::SymbolExpr>(use->loc);
        sym->name = slot->name;
        sym->global = slot;
        return sym;
      };
      auto *assign = arena.make<ast::AssignExpr>(use->loc);
      assign->op = ast::AssignOp::Assign;
      assign->target = ref();
      assign->value = ast::clone_expr(arena, use->args[0]);
      auto *stmt = arena.make<ast::ExprStmt>(use->loc);
      stmt->expr = assign;
      entry->body->stmts.push_back(stmt);
      use->args[0] = ref();
    }
    for (size_t i : points[decl]) {
      ast::ProbePoint *point = entry_point(arena, *program.probes[i].point);
      entry->points.push_back(point);
      size_t before = program.probes.size();
      program.probes[i].family->resolve(env, *entry, *point, program.probes, diag);
      drop_other_copies(program.probes, before);
      if (program.probes.size() != before + 1) {
        diag.error(point->loc, "no single entry point for '" + program.probes[i].pp + "'");
        continue;
      }
      program.probes[before].pn = program.probes[before].pp;
      program.probes[before].entry_part = true;
      // It runs where the return probe's function is entered, which is
      // where that probe's variables were located (not after the prologue).
      if (program.probes[i].scope)
        program.probes[before].scope = program.probes[i].scope;
      return_entry.emplace_back(i, before);
    }
    script.probes.push_back(entry);
  }
  // The vector is complete: pointers into it stay valid from here on.
  for (auto [ret, ent] : return_entry)
    program.probes[ret].entry = &program.probes[ent];
}

} // namespace stap
