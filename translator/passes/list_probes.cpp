#include "passes/list_probes.h"

#include "debuginfo/access_path.h"

#include <map>
#include <ostream>

namespace stap {
namespace {

// "name:string count:long $return:long"
std::string context_vars(const probes::ResolvedProbe &rp) {
  std::string s;
  for (const ast::VarDecl *v : rp.decl->locals)
    s += " " + v->name + ":" + ast::type_name(v->type);
  // With debuginfo: each variable with its C type, as SystemTap lists
  // them ("$return:ssize_t $file:struct file*"); without, what the family
  // names.
  if (const debuginfo::TargetScope *scope = rp.scope.get(); scope && scope->types) {
    if (scope->return_value)
      s += " $return:" + debuginfo::listing_name(*scope->types, scope->return_value->type);
    for (const debuginfo::TargetVar &v : scope->vars)
      if (!v.global) // the compilation unit's: 4.8 lists only the function's
        s += " $" + v.name + ":" + debuginfo::listing_name(*scope->types, v.type);
    return s;
  }
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
