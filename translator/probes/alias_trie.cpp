#include "probes/alias_trie.h"

#include <fnmatch.h>

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
  auto found = [&](size_t consumed) {
    AliasMatch &m = out[name];
    m.name = name;
    m.aliases = node.aliases;
    m.consumed = consumed;
    return true;
  };
  if (i == cs.size())
    return !node.aliases.empty() && found(i);
  const auto &c = cs[i];
  bool deeper = false;
  if (!c.arg) {
    auto join = [&](const std::string &child) { return name.empty() ? child : name + "." + child; };
    if (c.functor == "**") {
      // Zero components, or one more and still inside the `**`.
      deeper |= match_at(node, name, cs, i + 1, out);
      for (const auto &[child, next] : node.children)
        deeper |= match_at(*next, join(child), cs, i, out);
      return deeper;
    }
    for (const auto &[child, next] : node.children)
      if (fnmatch(c.functor.c_str(), child.c_str(), 0) == 0)
        deeper |= match_at(*next, join(child), cs, i + 1, out);
  }
  if (deeper)
    return true;
  // An alias suffix: the rest goes to the alias's targets. A wildcard in
  // the rest could only be resolved against the targets' families, which
  // is not done; such a point matches no alias.
  if (i == 0 || node.aliases.empty())
    return false;
  // Nor does a name a wildcard reached: `t*.slow` means the aliases named
  // so, not every `t*` alias with a `.slow` suffix.
  for (size_t j = 0; j < cs.size(); ++j)
    if (cs[j].functor.find_first_of("*?[") != std::string::npos)
      return false;
  return found(i);
}

std::vector<AliasMatch> AliasTrie::match(const std::vector<ast::ProbePointComponent> &cs) const {
  std::map<std::string, AliasMatch> out;
  match_at(root_, "", cs, 0, out);
  std::vector<AliasMatch> v;
  for (auto &[name, m] : out)
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
