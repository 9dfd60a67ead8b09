#include "passes/elide_empty_probes.h"

#include <algorithm>
#include <map>
#include <set>

namespace stap {
namespace {

bool does_nothing(const ast::Stmt *s) {
  if (!s || dynamic_cast<const ast::NullStmt *>(s))
    return true;
  auto *b = dynamic_cast<const ast::BlockStmt *>(s);
  if (!b)
    return false;
  for (const ast::Stmt *inner : b->stmts)
    if (!does_nothing(inner))
      return false;
  return true;
}

} // namespace

void elide_empty_probes(Program &program, Diagnostics &diag) {
  auto empty = [](const probes::ResolvedProbe &p) {
    return p.decl && does_nothing(p.decl->body) && !p.entry_part && !p.entry &&
           !p.acts_without_body;
  };
  if (std::none_of(program.probes.begin(), program.probes.end(), empty))
    return;
  std::vector<probes::ResolvedProbe> kept;
  // Return probes point at their entry parts in the vector: where each
  // kept probe moves to.
  std::map<const probes::ResolvedProbe *, size_t> moved;
  std::set<const ast::ProbeDecl *> elided;
  for (probes::ResolvedProbe &p : program.probes) {
    if (empty(p)) {
      const auto &first = p.point->components.front();
      diag.warning(p.decl->loc, "Probe '" + first.functor + "' has been elided");
      elided.insert(p.decl);
      continue;
    }
    moved[&p] = kept.size();
    kept.push_back(std::move(p));
  }
  for (probes::ResolvedProbe &p : kept)
    if (p.entry)
      p.entry = &kept[moved.at(p.entry)];
  program.probes = std::move(kept);
  auto &decls = program.files.front()->probes;
  std::erase_if(decls, [&](const ast::ProbeDecl *d) {
    for (const probes::ResolvedProbe &p : program.probes)
      if (p.decl == d)
        return false;
    return elided.count(d) > 0;
  });
}

} // namespace stap
