#include "passes/warn_unused.h"

#include "ast/visitor.h"

#include <algorithm>
#include <map>
#include <set>

namespace stap {
namespace {

// Reads and plain assignments of each local of one body. A probe body may
// hold code of tapset aliases (prologues, epilogues): like SystemTap, only
// the user script's own code is warned about, but reads and writes
// anywhere count.
class LocalUse : public ast::Visitor {
public:
  explicit LocalUse(const SourceFile *script) : script_(script) {}
  std::map<ast::VarDecl *, std::vector<ast::AssignExpr *>> assignments; // in the script
  std::map<ast::VarDecl *, ast::SymbolExpr *> first_read; // in the script
  std::set<ast::VarDecl *> read;    // anywhere
  std::set<ast::VarDecl *> written; // by anything: =, +=, ++, foreach, catch

  void visit(ast::SymbolExpr &n) override {
    if (!n.local)
      return;
    read.insert(n.local);
    if (n.loc.file == script_ && !first_read.count(n.local))
      first_read[n.local] = &n;
  }
  void visit(ast::AssignExpr &n) override {
    auto *sym = dynamic_cast<ast::SymbolExpr *>(n.target);
    if (!sym || !sym->local) {
      Visitor::visit(n);
      return;
    }
    written.insert(sym->local);
    if (n.op == ast::AssignOp::Assign) { // a pure store: not a read
      if (n.loc.file == script_)
        assignments[sym->local].push_back(&n);
    }
    else
      visit(*sym); // `x += 1` reads x
    visit_expr(n.value);
  }
  void visit(ast::IncDecExpr &n) override {
    if (auto *sym = dynamic_cast<ast::SymbolExpr *>(n.operand); sym && sym->local)
      written.insert(sym->local);
    Visitor::visit(n);
  }
  void visit(ast::ForeachStmt &n) override {
    for (ast::SymbolExpr *k : n.keys)
      if (k->local)
        written.insert(k->local);
    if (n.value && n.value->local)
      written.insert(n.value->local);
    // The keys and value are stores, not reads.
    visit_expr(n.array);
    for (ast::Expr *e : n.slice)
      visit_expr(e);
    visit_expr(n.limit);
    visit_stmt(n.body);
  }
  void visit(ast::TryStmt &n) override {
    if (n.catch_var && n.catch_var->local)
      written.insert(n.catch_var->local);
    visit_stmt(n.try_block);
    visit_stmt(n.catch_block);
  }

private:
  const SourceFile *script_;
};

size_t edit_distance(const std::string &a, const std::string &b) {
  std::vector<size_t> row(b.size() + 1);
  for (size_t j = 0; j <= b.size(); ++j)
    row[j] = j;
  for (size_t i = 1; i <= a.size(); ++i) {
    size_t diag = row[0];
    row[0] = i;
    for (size_t j = 1; j <= b.size(); ++j) {
      size_t up = row[j];
      row[j] = std::min({row[j] + 1, row[j - 1] + 1, diag + (a[i - 1] != b[j - 1])});
      diag = up;
    }
  }
  return row[b.size()];
}

// " (similar: a, b)": the five nearest other names by edit distance.
std::string similar_names(const std::string &name, const std::vector<std::string> &candidates) {
  std::vector<std::pair<size_t, std::string>> ranked;
  for (const auto &c : candidates)
    if (c != name)
      ranked.emplace_back(edit_distance(name, c), c);
  std::sort(ranked.begin(), ranked.end());
  ranked.erase(std::unique(ranked.begin(), ranked.end()), ranked.end());
  if (ranked.empty())
    return "";
  std::string s = " (similar: ";
  for (size_t i = 0; i < ranked.size() && i < 5; ++i)
    s += (i ? ", " : "") + ranked[i].second;
  return s + ")";
}

// Only the user's own code is warned about (as SystemTap does): a probe's
// body may hold an alias's prologue from a tapset, whose locals are not
// the user's business.
void check_body(ast::Node &body, const std::vector<ast::VarDecl *> &params,
                const std::vector<ast::VarDecl *> &locals, const Program &program,
                Diagnostics &diag) {
  LocalUse use(program.files.front()->source.get());
  body.accept(use);
  std::vector<std::string> names;
  for (const auto *v : params)
    names.push_back(v->name);
  for (const auto *v : locals)
    names.push_back(v->name);
  for (const auto *g : program.globals)
    names.push_back(g->name);
  for (ast::VarDecl *v : locals) {
    auto read = use.first_read.find(v);
    if (!use.read.count(v)) {
      for (ast::AssignExpr *a : use.assignments[v])
        diag.warning(a->loc, "Eliding assignment to '" + v->name + "'");
    } else if (read != use.first_read.end() && !use.written.count(v)) {
      diag.warning(read->second->loc, "never-assigned local variable '" + v->name + "'" +
                                          similar_names(v->name, names));
    }
  }
}

} // namespace

void warn_unused_locals(Program &program, Diagnostics &diag) {
  const ast::File &script = *program.files.front();
  for (ast::ProbeDecl *p : script.probes)
    check_body(*p->body, {}, p->locals, program, diag);
  for (ast::FunctionDecl *fn : program.functions)
    if (fn->file == script.source.get() && fn->body)
      check_body(*fn->body, fn->params, fn->locals, program, diag);
}

} // namespace stap
