// Pass 2a: probe points to concrete probes. A point is first matched
// against the probe aliases of the script and the tapsets (wildcards,
// alias suffixes, aliases of aliases); what is left is handed to the probe
// family its first component names. A probe whose points went through
// aliases gets a body of its own: the aliases' prologues, a copy of the
// user's body, the epilogues, all in one scope, as SystemTap does.
#include "passes/resolve_probes.h"

#include "ast/clone.h"
#include "probes/alias_trie.h"
#include "probes/wildcards.h"

#include <algorithm>
#include <map>
#include <set>
#include <sstream>

namespace stap {
namespace {

// What alias expansion adds around one use of a point.
struct Expansion {
  std::string pn;                           // the script-level name, once known
  std::vector<ast::BlockStmt *> prologues;  // run in this order, before the body
  std::vector<ast::BlockStmt *> epilogues;  // run in this order, after it
  std::vector<ast::Expr *> conditions;      // all must hold
  std::vector<const ast::ProbeAliasDecl *> chain; // aliases being expanded
  const ast::ProbePoint *use = nullptr;     // the user's point
};

class ProbeResolver {
public:
  ProbeResolver(const probes::ResolveEnv &env, Program &p, ast::Arena &a, Diagnostics &d,
                bool quiet_no_match)
      : env_(env), program_(p), arena_(a), diag_(d), quiet_no_match_(quiet_no_match) {
    for (const auto &f : p.files)
      for (ast::ProbeAliasDecl *alias : f->aliases)
        trie_.add(*alias);
  }

  void resolve(ast::ProbeDecl &decl) {
    for (ast::ProbePoint *point : decl.points) {
      if (point->components.empty())
        continue;
      Expansion e;
      e.use = point;
      if (point->condition)
        e.conditions.push_back(point->condition);
      size_t found = expand(decl, *point, e, point->optional || point->sufficient);
      if (found && point->sufficient)
        break;
    }
  }

private:
  // Resolves `point` (the user's or an alias target) in context `e`;
  // returns how many probes it gave.
  size_t expand(ast::ProbeDecl &decl, ast::ProbePoint &point, const Expansion &e,
                bool optional) {
    std::vector<probes::AliasMatch> matches = trie_.match(point.components);
    if (!probes::has_keyword_wildcard(point.components)) {
      if (matches.empty())
        return resolve_family(decl, point, e, optional);
      size_t found = 0;
      for (const probes::AliasMatch &m : matches)
        for (const ast::ProbeAliasDecl *alias : m.aliases)
          found += expand_alias(decl, point, *alias, m.name, m.suffix, e, optional);
      return found;
    }
    // A wildcard: every alias and every family point it matches, as one
    // set (`t*.*` may be `tick.slow` and `timer.profile`); those that fail
    // to resolve are left out, and only an empty set is an error.
    size_t found = 0;
    for (const probes::AliasMatch &m : matches)
      for (const ast::ProbeAliasDecl *alias : m.aliases)
        found += expand_alias(decl, point, *alias, m.name, m.suffix, e, true);
    for (const probes::Components &cs : probes::expand_family_keywords(point.components)) {
      auto *p = arena_.make<ast::ProbePoint>(point.loc);
      *p = point;
      p->components = cs;
      found += resolve_family(decl, *p, e, true);
    }
    if (!found && !optional && !quiet_no_match_)
      no_match(point, e, "no probe point matches '" + probes::probe_point_string(point) + "'");
    return found;
  }

  size_t expand_alias(ast::ProbeDecl &decl, ast::ProbePoint &point,
                      const ast::ProbeAliasDecl &alias, const std::string &name,
                      const std::vector<ast::ProbePointComponent> &suffix, const Expansion &e,
                      bool optional) {
    if (std::find(e.chain.begin(), e.chain.end(), &alias) != e.chain.end()) {
      std::string path;
      for (const ast::ProbeAliasDecl *a : e.chain)
        path += probes::probe_point_string(*a->names.front()) + " -> ";
      diag_.error(point.loc, "probe alias '" + name + "' refers to itself (" + path + name + ")");
      return 0;
    }
    Expansion inner = e;
    inner.chain.push_back(&alias);
    // With a wildcard in the suffix the script's name is not known until
    // the target's family resolves it: pn() is then the resolved point, as
    // in SystemTap (`foo.*` lists kprobe.function("f").call and .return).
    if (inner.pn.empty() && !probes::has_keyword_wildcard(suffix)) {
      inner.pn = name;
      for (const auto &c : suffix)
        inner.pn += "." + probes::component_string(c);
    }
    for (ast::BlockStmt *b : {alias.body, alias.epilogue_body})
      if (b)
        b->file = alias.file;
    if (alias.epilogue) {
      inner.epilogues.push_back(alias.body);
    } else {
      inner.prologues.insert(inner.prologues.begin(), alias.body);
      if (alias.epilogue_body)
        inner.epilogues.push_back(alias.epilogue_body);
    }
    size_t found = 0;
    for (const ast::ProbePoint *target : alias.targets) {
      auto *p = arena_.make<ast::ProbePoint>(target->loc);
      p->components = target->components;
      p->components.insert(p->components.end(), suffix.begin(), suffix.end());
      p->optional = target->optional;
      p->sufficient = target->sufficient;
      Expansion t = inner;
      if (target->condition)
        t.conditions.push_back(target->condition);
      size_t n = expand(decl, *p, t, optional || target->optional || target->sufficient);
      found += n;
      if (n && target->sufficient)
        break;
    }
    return found;
  }

  size_t resolve_family(ast::ProbeDecl &decl, ast::ProbePoint &point, const Expansion &e,
                        bool optional) {
    const probes::ProbeFamily *family = probes::find_family(point.components[0].functor);
    if (!family) {
      if (!optional && !quiet_no_match_)
        no_match(point, e, "no probe point matches '" + probes::probe_point_string(point) + "'");
      return 0;
    }
    size_t before = program_.probes.size();
    // Errors of a point that may fail are not reported.
    std::ostringstream discard;
    Diagnostics quiet(discard);
    bool silent = optional || quiet_no_match_;
    ast::ProbeDecl &body = decl_for(decl, e);
    unsigned errors_before = diag_.errors();
    family->resolve(env_, body, point, program_.probes, silent ? quiet : diag_);
    if (diag_.errors() != errors_before && e.use != &point)
      diag_.note(e.use->loc, "while resolving probe point '" +
                                 probes::probe_point_string(*e.use) + "'");
    for (size_t i = before; i < program_.probes.size(); ++i) {
      program_.probes[i].pn = e.pn.empty() ? program_.probes[i].pp : e.pn;
      if (program_.probes[i].derivation.empty()) // kernel.data sets its own
        program_.probes[i].derivation = derivation(decl, e);
    }
    return program_.probes.size() - before;
  }

  // "<- tick = timer.ms(100) <- tick", as SystemTap 4.8 prints it: each
  // alias (its names, then its targets), innermost first, then the points
  // of the user's probe.
  static std::string derivation(const ast::ProbeDecl &decl, const Expansion &e) {
    auto list = [](const std::vector<ast::ProbePoint *> &points, const char *sep) {
      std::string s;
      for (const ast::ProbePoint *p : points)
        s += (s.empty() ? "" : sep) + point_text(*p);
      return s;
    };
    std::string s;
    for (auto a = e.chain.rbegin(); a != e.chain.rend(); ++a)
      s += "<- " + list((*a)->names, ",") + ((*a)->epilogue ? " += " : " = ") +
           list((*a)->targets, ", ") + " ";
    return s + "<- " + list(decl.points, ",");
  }
  static std::string point_text(const ast::ProbePoint &p) {
    return probes::probe_point_string(p) + (p.sufficient ? "!" : p.optional ? "?" : "");
  }

  void no_match(const ast::ProbePoint &point, const Expansion &e, const std::string &msg) {
    diag_.error(point.components[0].loc, msg);
    if (e.use != &point)
      diag_.note(e.use->loc, "while resolving probe point '" +
                                 probes::probe_point_string(*e.use) + "'");
  }

  // The probe that runs `decl`'s body with what `e` adds: `decl` itself if
  // nothing, else one new probe per distinct combination.
  ast::ProbeDecl &decl_for(ast::ProbeDecl &decl, const Expansion &e) {
    if (e.prologues.empty() && e.epilogues.empty() && e.conditions.empty())
      return decl;
    Key key{&decl, e.prologues, e.epilogues, e.conditions};
    auto it = derived_.find(key);
    if (it != derived_.end())
      return *it->second;
    auto *d = arena_.make<ast::ProbeDecl>(decl.loc);
    d->points = decl.points;
    d->is_private = decl.is_private;
    d->file = decl.file;
    d->body = arena_.make<ast::BlockStmt>(decl.body ? decl.body->loc : decl.loc);
    if (!e.conditions.empty()) {
      // `if (!(c1 && c2)) next;`: a false condition makes the probe do nothing.
      ast::Expr *all = nullptr;
      for (ast::Expr *c : e.conditions) {
        ast::Expr *copy = ast::clone_expr(arena_, c);
        if (!all) {
          all = copy;
          continue;
        }
        auto *both = arena_.make<ast::BinaryExpr>(c->loc);
        both->op = ast::BinaryOp::LogAnd;
        both->left = all;
        both->right = copy;
        all = both;
      }
      auto *negated = arena_.make<ast::UnaryExpr>(all->loc);
      negated->op = ast::UnaryOp::Not;
      negated->operand = all;
      auto *skip = arena_.make<ast::IfStmt>(all->loc);
      skip->cond = negated;
      skip->then_stmt = arena_.make<ast::NextStmt>(all->loc);
      d->body->stmts.push_back(skip);
    }
    for (ast::BlockStmt *b : e.prologues)
      d->body->stmts.push_back(ast::clone_stmt(arena_, b));
    if (decl.body)
      d->body->stmts.push_back(ast::clone_stmt(arena_, decl.body));
    for (ast::BlockStmt *b : e.epilogues)
      d->body->stmts.push_back(ast::clone_stmt(arena_, b));
    derived_.emplace(key, d);
    return *d;
  }

  using Key = std::tuple<ast::ProbeDecl *, std::vector<ast::BlockStmt *>,
                         std::vector<ast::BlockStmt *>, std::vector<ast::Expr *>>;

  const probes::ResolveEnv &env_;
  Program &program_;
  ast::Arena &arena_;
  Diagnostics &diag_;
  bool quiet_no_match_;
  probes::AliasTrie trie_;
  std::map<Key, ast::ProbeDecl *> derived_;
};

} // namespace

void resolve_probes(const probes::ResolveEnv &env, Program &program, ast::Arena &arena,
                    Diagnostics &diag, bool quiet_no_match) {
  ast::File &script = *program.files.front();
  ProbeResolver r(env, program, arena, diag, quiet_no_match);
  for (ast::ProbeDecl *decl : script.probes)
    r.resolve(*decl);
  // The plain probes of the library files the script uses run too
  // (target_set.stp's process.begin/end keep its set current); -l and -L
  // list only what their pattern names.
  for (size_t i = 1; i < program.files.size() && !quiet_no_match; ++i)
    for (ast::ProbeDecl *decl : program.files[i]->probes) {
      decl->file = program.files[i]->source.get();
      r.resolve(*decl);
    }
  // From here on the script's probes are the ones that run: a body only
  // used through aliases lives on in its copies.
  std::vector<ast::ProbeDecl *> used;
  std::set<ast::ProbeDecl *> seen;
  for (const auto &rp : program.probes)
    if (seen.insert(rp.decl).second)
      used.push_back(rp.decl);
  script.probes = std::move(used);
}

} // namespace stap
