// Probe alias names in a tree of components, for matching a probe point
// against them: `*` (and `?`, `[...]`) within one component, `**` across
// one or more (probes/wildcards.h), and alias suffixes (a use `foo.return`
// of an alias `foo` expands to its targets with `.return` appended). The
// longest alias name that matches wins: with aliases `foo` and
// `foo.return`, `foo.return` means the latter. A suffix may itself hold
// wildcards (`foo.*`, `syscall.*.r*`): the targets' families resolve them.
#pragma once
#include "ast/ast.h"

#include <map>
#include <memory>
#include <string>
#include <vector>

namespace stap::probes {

struct AliasMatch {
  std::string name;                              // "syscall.open": wildcards resolved
  std::vector<const ast::ProbeAliasDecl *> aliases; // every alias of that name
  std::vector<ast::ProbePointComponent> suffix;  // the rest of the point, for the targets
};

class AliasTrie {
public:
  void add(const ast::ProbeAliasDecl &alias);
  // The alias names `components` matches, in name order.
  std::vector<AliasMatch> match(const std::vector<ast::ProbePointComponent> &components) const;
  // Every alias name (for `stap -l`).
  std::vector<std::string> names() const;

private:
  struct Node {
    std::map<std::string, std::unique_ptr<Node>> children;
    std::vector<const ast::ProbeAliasDecl *> aliases;
  };
  bool match_at(const Node &node, const std::string &name,
                const std::vector<ast::ProbePointComponent> &cs, size_t i,
                std::map<std::string, AliasMatch> &out) const;
  Node root_;
};

} // namespace stap::probes
