#include "probes/alias_trie.h"

#include "lang/glob.h"
#include "probes/family.h"
#include "probes/wildcards.h"

namespace stap::probes {

void AliasTrie::add(const ast::ProbeAliasDecl &alias) {
  for (const ast::ProbePoint *name : alias.names) {
    Node *n = &root_;
    for (const auto &c : name->components) {
      auto &child = n->children[c.functor];
      if (!child)
        child = std::make_unique<Node>();
      n = child.get();
    }
    n->aliases.push_back(&alias);
  }
}

bool AliasTrie::match_at(const Node &node, const std::string &name,
                         const std::vector<ast::ProbePointComponent> &cs, size_t i,
                         std::map<std::string, AliasMatch> &out) const {
  auto found = [&](size_t from) {
    AliasMatch m{name, node.aliases, {cs.begin() + static_cast<std::ptrdiff_t>(from), cs.end()}};
    ast::ProbePoint rest;
    rest.components = m.suffix;
    out[name + " " + probe_point_string(rest)] = std::move(m);
    return true;
  };
  if (i == cs.size())
    return !node.aliases.empty() && found(i);
  const auto &c = cs[i];
  if (has_double_star(c)) {
    bool any = false;
    for (const auto &reading : double_star_readings(cs, i))
      any |= match_at(node, name, reading, i, out);
    return any;
  }
  bool deeper = false;
  if (!c.arg)
    for (const auto &[child, next] : node.children)
      if (lang::glob_match(c.functor, child))
        deeper |= match_at(*next, name.empty() ? child : name + "." + child, cs, i + 1, out);
  if (deeper)
    return true;
  // An alias suffix: the rest goes to the alias's targets.
  if (i == 0 || node.aliases.empty())
    return false;
  return found(i);
}

std::vector<AliasMatch> AliasTrie::match(const std::vector<ast::ProbePointComponent> &cs) const {
  std::map<std::string, AliasMatch> out;
  match_at(root_, "", cs, 0, out);
  std::vector<AliasMatch> v;
  for (auto &[_, m] : out)
    v.push_back(std::move(m));
  return v;
}

std::vector<std::string> AliasTrie::names() const {
  std::vector<std::string> out;
  std::vector<std::pair<const Node *, std::string>> todo{{&root_, ""}};
  while (!todo.empty()) {
    auto [n, name] = todo.back();
    todo.pop_back();
    if (!n->aliases.empty())
      out.push_back(name);
    for (const auto &[child, next] : n->children)
      todo.push_back({next.get(), name.empty() ? child : name + "." + child});
  }
  return out;
}

} // namespace stap::probes
