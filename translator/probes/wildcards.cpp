#include "probes/wildcards.h"

#include "lang/glob.h"

#include <map>

namespace stap::probes {
namespace {

// Collects the concrete points of `shape` that cs[i..] matches from
// shape[j..] on; `made` holds the components matched so far.
void match_shape(const PointShape &shape, size_t j, const Components &cs, size_t i,
                 Components &made, std::map<std::string, Components> &out) {
  if (i == cs.size()) {
    if (j == shape.size()) {
      ast::ProbePoint p;
      p.components = made;
      out.emplace(probe_point_string(p), made);
    }
    return;
  }
  if (j == shape.size())
    return;
  const ast::ProbePointComponent &c = cs[i];
  if (has_double_star(c)) {
    for (const Components &reading : double_star_readings(cs, i))
      match_shape(shape, j, reading, i, made, out);
    return;
  }
  if ((c.arg != nullptr) != shape[j].has_arg ||
      !lang::glob_match(c.functor, shape[j].functor))
    return;
  made.push_back(c);
  made.back().functor = shape[j].functor;
  match_shape(shape, j + 1, cs, i + 1, made, out);
  made.pop_back();
}

} // namespace

bool has_keyword_wildcard(const Components &cs) {
  for (const auto &c : cs)
    if (lang::has_glob(c.functor))
      return true;
  return false;
}

bool has_double_star(const ast::ProbePointComponent &c) {
  return !c.arg && lang::has_double_star(c.functor);
}

std::vector<Components> double_star_readings(const Components &cs, size_t i) {
  lang::DoubleStarReadings r = lang::double_star_readings(cs[i].functor);
  Components one = cs;
  one[i].functor = r.one;
  Components two = cs;
  two[i].functor = r.first;
  ast::ProbePointComponent rest = cs[i];
  rest.functor = r.rest;
  two.insert(two.begin() + static_cast<std::ptrdiff_t>(i) + 1, rest);
  return {one, two};
}

std::vector<Components> expand_family_keywords(const Components &cs) {
  std::map<std::string, Components> out;
  Components made;
  for (const ProbeFamily *f : all_families())
    for (const PointShape &shape : f->shapes())
      match_shape(shape, 0, cs, 0, made, out);
  std::vector<Components> v;
  for (auto &[_, c] : out)
    v.push_back(std::move(c));
  return v;
}

} // namespace stap::probes
