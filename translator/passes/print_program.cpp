#include "passes/print_program.h"

#include "ast/visitor.h"
#include "lang/builtins.h"
#include "passes/displayed_globals.h"

#include <algorithm>
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
  std::string name = g.name;
  if (auto *n = dynamic_cast<const ast::NumberLit *>(g.size))
    name += "[" + std::to_string(n->value) + "]";
  std::string keys;
  for (ast::Type k : g.key_types)
    keys += (keys.empty() ? "" : ", ") + std::string(ast::type_name(k));
  return typed(name, g.type) + " [" + keys + "]";
}

std::string locals(const std::vector<ast::VarDecl *> &vars) {
  std::string s = vars.empty() ? "" : "  # locals\n";
  for (const ast::VarDecl *v : vars)
    s += "  " + typed(v->name, v->type) + "\n";
  return s;
}

// The builtins called in the program that SystemTap defines as tapset
// functions (lang::Builtin::listed_as_function).
class ListedBuiltins : public ast::Visitor {
public:
  void visit(ast::CallExpr &n) override {
    Visitor::visit(n);
    const lang::Builtin *b = n.callee ? nullptr : lang::find_builtin(n.name);
    if (b && b->listed_as_function)
      found.insert(b);
  }
  std::set<const lang::Builtin *> found;
};

} // namespace

void print_program(const Program &p, std::ostream &out) {
  if (!p.globals.empty()) {
    out << "# globals\n";
    for (const ast::GlobalDecl *g : globals_in_listing_order(p))
      out << global_line(*g) << "\n";
  }
  // Functions by name, as SystemTap 4.8 keeps them, with the builtins it
  // defines in tapsets among them.
  std::vector<std::pair<std::string, std::string>> functions; // name, text
  for (const ast::FunctionDecl *f : p.functions) {
    std::string text = typed(f->name, f->return_type) + " (";
    for (size_t i = 0; i < f->params.size(); ++i)
      text += (i ? ", " : "") + typed(f->params[i]->name, f->params[i]->type);
    functions.emplace_back(f->name, text + ")\n" + locals(f->locals));
  }
  ListedBuiltins builtins;
  for (const auto &rp : p.probes)
    if (rp.decl->body)
      rp.decl->body->accept(builtins);
  for (const ast::FunctionDecl *f : p.functions)
    if (f->body)
      f->body->accept(builtins);
  for (const lang::Builtin *b : builtins.found)
    functions.emplace_back(std::string(b->name), typed(std::string(b->name), b->result) + " ()\n");
  std::stable_sort(functions.begin(), functions.end(),
                   [](const auto &a, const auto &b) { return a.first < b.first; });
  if (!functions.empty())
    out << "# functions\n";
  for (const auto &[name, text] : functions)
    out << text;
  // Each probe with its derivation and its locals, as SystemTap 4.8
  // prints them (probes that share a body each list its locals).
  out << "# probes\n";
  for (const auto &rp : p.probes) {
    out << rp.pp << " /* " << (rp.derivation.empty() ? "<- " + rp.pn : rp.derivation) << " */\n";
    out << locals(rp.decl->locals);
  }
  // The display of write-only globals at the end: SystemTap 4.8 adds an
  // `end` probe for each, whose locals walk an array's entries.
  for (const ast::GlobalDecl *g : displayed_globals(p)) {
    out << "end /* <- end */\n";
    std::vector<std::string> vars;
    for (size_t i = 0; g->array && i < g->key_types.size(); ++i)
      vars.push_back(typed("__idx" + std::to_string(i), g->key_types[i]));
    if (g->array && g->type != ast::Type::Stats)
      vars.push_back(typed("__val", g->type));
    if (!vars.empty())
      out << "  # locals\n";
    for (const auto &v : vars)
      out << "  " << v << "\n";
  }
}

} // namespace stap
