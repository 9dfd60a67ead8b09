#include "passes/list_probes.h"

#include <map>
#include <ostream>

namespace stap {
namespace {

// "name:string count:long $return:long"
std::string context_vars(const probes::ResolvedProbe &rp) {
  std::string s;
  for (const ast::VarDecl *v : rp.decl->locals)
    s += " " + v->name + ":" + ast::type_name(v->type);
  for (const probes::ContextVar &v : rp.family->context_vars(rp))
    s += " " + v.name + ":" + ast::type_name(v.type);
  return s;
}

} // namespace

bool list_probes(const Program &program, bool vars, std::ostream &out) {
  std::map<std::string, std::string> lines; // sorted, unique
  for (const auto &rp : program.probes)
    if (!rp.entry_part) // made for @entry, not a point the script names
      lines.emplace(rp.pn, vars ? context_vars(rp) : "");
  for (const auto &[pn, rest] : lines)
    out << pn << rest << "\n";
  return !lines.empty();
}

} // namespace stap
