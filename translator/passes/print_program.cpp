#include "passes/print_program.h"

#include <ostream>
#include <set>

namespace stap {
namespace {

std::string typed(const std::string &name, ast::Type t) {
  return name + ":" + ast::type_name(t);
}

std::string global_line(const ast::GlobalDecl &g) {
  if (!g.array)
    return typed(g.name, g.type);
  std::string keys;
  for (ast::Type k : g.key_types)
    keys += (keys.empty() ? "" : ", ") + std::string(ast::type_name(k));
  return typed(g.name, g.type) + " [" + keys + "]";
}

void locals(const std::vector<ast::VarDecl *> &vars, std::ostream &out) {
  for (const ast::VarDecl *v : vars)
    out << "  " << typed(v->name, v->type) << "\n";
}

} // namespace

void print_program(const Program &p, std::ostream &out) {
  if (!p.globals.empty()) {
    out << "# globals\n";
    for (const ast::GlobalDecl *g : p.globals)
      out << global_line(*g) << "\n";
  }
  if (!p.functions.empty()) {
    out << "# functions\n";
    for (const ast::FunctionDecl *f : p.functions) {
      out << typed(f->name, f->return_type) << " (";
      for (size_t i = 0; i < f->params.size(); ++i)
        out << (i ? ", " : "") << typed(f->params[i]->name, f->params[i]->type);
      out << ")\n";
      locals(f->locals, out);
    }
  }
  out << "# probes\n";
  std::set<const ast::ProbeDecl *> shown;
  for (const auto &rp : p.probes) {
    out << rp.pp << " /* <- " << rp.pn << " */\n";
    if (shown.insert(rp.decl).second)
      locals(rp.decl->locals, out);
  }
}

} // namespace stap
