// Wildcards in the keywords of a probe point, as SystemTap 4.8 reads them
// (lang/glob.h): `*`, `?` and `[...]` match within one component; a
// component with `**` has two readings, `a**b` as the one component `a*b`,
// or as `a*` followed by `**b` -- so `**` spans one or more components,
// never none (`foo.**` is not `foo`), and `sys**open` matches `syscall.open`.
// Arguments are never wildcards: a component with an argument only
// matches a keyword that takes one (`timer.*` is not `timer.ms(N)`).
#pragma once
#include "ast/ast.h"
#include "probes/family.h"

#include <string>
#include <vector>

namespace stap::probes {

using Components = std::vector<ast::ProbePointComponent>;

// Does any keyword of `cs` have a wildcard?
bool has_keyword_wildcard(const Components &cs);

// The readings of `cs` with its first `**` at component `i` rewritten:
// {a*b} and {a*, **b}. `i` must hold a `**` keyword without an argument.
std::vector<Components> double_star_readings(const Components &cs, size_t i);
bool has_double_star(const ast::ProbePointComponent &c);

// The concrete points `cs` stands for among every family's shapes: the
// keywords made literal, the user's arguments kept; sorted, unique.
std::vector<Components> expand_family_keywords(const Components &cs);

} // namespace stap::probes
