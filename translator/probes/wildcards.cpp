#include "probes/wildcards.h"

#include <fnmatch.h>
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
      fnmatch(c.functor.c_str(), shape[j].functor.c_str(), 0) != 0)
    return;
  made.push_back(c);
  made.back().functor = shape[j].functor;
  match_shape(shape, j + 1, cs, i + 1, made, out);
  made.pop_back();
}

} // namespace

bool is_glob(const std::string &s) { return s.find_first_of("*?[") != std::string::npos; }

bool has_keyword_wildcard(const Components &cs) {
  for (const auto &c : cs)
    if (is_glob(c.functor))
      return true;
  return false;
}

bool has_double_star(const ast::ProbePointComponent &c) {
  return !c.arg && c.functor.find("**") != std::string::npos;
}

std::vector<Components> double_star_readings(const Components &cs, size_t i) {
  const std::string &f = cs[i].functor;
  size_t at = f.find("**");
  std::string before = f.substr(0, at), after = f.substr(at + 2);
  Components one = cs;
  one[i].functor = before + "*" + after;
  Components two = cs;
  two[i].functor = before + "*";
  ast::ProbePointComponent rest = cs[i];
  rest.functor = "**" + after;
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
