#include "passes/print_program.h"

#include <ostream>

namespace stap {
namespace {

std::string typed(const std::string &name, ast::Type t) {
  return name + ":" + ast::type_name(t);
}

std::string global_line(const ast::GlobalDecl &g) {
  if (!g.array)
    return typed(g.name, g.type);
  std::string name = g.name;
  if (auto *n = dynamic_cast<const ast::NumberLit *>(g.size))
    name += "[" + std::to_string(n->value) + "]";
  std::string keys;
  for (ast::Type k : g.key_types)
    keys += (keys.empty() ? "" : ", ") + std::string(ast::type_name(k));
  return typed(name, g.type) + " [" + keys + "]";
}

void locals(const std::vector<ast::VarDecl *> &vars, std::ostream &out) {
  if (!vars.empty())
    out << "  # locals\n";
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
  // Each probe with its derivation and its locals, as SystemTap 4.8
  // prints them (probes that share a body each list its locals).
  out << "# probes\n";
  for (const auto &rp : p.probes) {
    out << rp.pp << " /* " << (rp.derivation.empty() ? "<- " + rp.pn : rp.derivation) << " */\n";
    locals(rp.decl->locals, out);
  }
}

} // namespace stap
