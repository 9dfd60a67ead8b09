#include "passes/load_tapsets.h"

#include "ast/visitor.h"
#include "lang/glob.h"
#include "parse/preprocess.h"

#include <algorithm>
#include <deque>
#include <fstream>
#include <set>
#include <sstream>

namespace stap {
namespace {

// The names a declaration refers to: calls, variables (any of which may be
// a tapset global) and probe points (which may be aliases).
class NeedCollector : public ast::Visitor {
public:
  std::deque<std::string> symbols, points;

  void visit(ast::CallExpr &n) override {
    symbols.push_back(n.name);
    Visitor::visit(n);
  }
  // A function's parameter is never a global (parameters come first in
  // symbol resolution): `argv` in `__get_argv(argv)` must not load
  // argv.stp and its init probe.
  void visit(ast::SymbolExpr &n) override {
    if (!params_ || std::none_of(params_->begin(), params_->end(),
                                 [&](const ast::VarDecl *p) { return p->name == n.name; }))
      symbols.push_back(n.name);
  }
  void visit(ast::FunctionDecl &n) override {
    params_ = &n.params;
    Visitor::visit(n);
    params_ = nullptr;
  }
  // A procfs probe's `$value` becomes calls of tapsets/procfs.stp
  // (passes/procfs_value.h), after loading: its file is needed now.
  void visit(ast::TargetExpr &n) override {
    if (n.name == "$value")
      symbols.push_back("_procfs_value_get");
    Visitor::visit(n);
  }
  void visit(ast::ProbePoint &n) override {
    std::string dotted;
    for (const auto &c : n.components)
      dotted += (dotted.empty() ? "" : ".") + c.functor;
    points.push_back(dotted);
    Visitor::visit(n);
  }
  // An alias's own names are what it defines, not what it needs.
  void visit(ast::ProbeAliasDecl &n) override {
    for (ast::ProbePoint *p : n.targets)
      visit(*p);
    visit_stmt(n.body);
    visit_stmt(n.epilogue_body);
  }

private:
  const std::vector<ast::VarDecl *> *params_ = nullptr;
};

std::string dotted_name(const ast::ProbePoint &p) {
  std::string s;
  for (const auto &c : p.components)
    s += (s.empty() ? "" : ".") + c.functor;
  return s;
}

class LazyLoader {
public:
  LazyLoader(const tapsets::TapsetIndex &index, ast::Arena &arena, const parse::ParseOptions &opts,
             Diagnostics &diag)
      : index_(index), arena_(arena), opts_(opts), diag_(diag), parsed_(index.files().size()) {}

  void need_all_of(ast::File &script) { collect(script); }

  void run() {
    while (!needs_.symbols.empty() || !needs_.points.empty()) {
      if (!needs_.symbols.empty()) {
        std::string name = std::move(needs_.symbols.front());
        needs_.symbols.pop_front();
        if (seen_symbols_.insert(name).second)
          resolve_symbol(name);
      } else {
        std::string point = std::move(needs_.points.front());
        needs_.points.pop_front();
        if (seen_points_.insert(point).second)
          resolve_point(point);
      }
    }
  }

  // The parsed files, in search-path order.
  std::vector<std::unique_ptr<ast::File>> take_files() {
    std::vector<std::unique_ptr<ast::File>> out;
    for (auto &f : parsed_)
      if (f)
        out.push_back(std::move(f));
    return out;
  }

private:
  void resolve_symbol(const std::string &name) {
    for (size_t i : index_.files_defining_symbol(name))
      parse(i);
    // Also private definitions of already parsed files: the index leaves
    // those out, but their own file may use them.
    for (auto &f : parsed_) {
      if (!f)
        continue;
      for (ast::FunctionDecl *fn : f->functions)
        if (fn->name == name)
          collect_decl(*fn);
      for (ast::GlobalDecl *g : f->globals)
        if (g->name == name)
          collect_decl(*g);
    }
  }

  void resolve_point(const std::string &point) {
    // A point may also be reached with suffixes the script never writes
    // after it: `probe m = syscall.open {}` used as `m.return` names
    // syscall.open.return. So the aliases that extend the point count too.
    const std::string extended = point + ".**";
    for (const std::string *p : {&point, &extended})
      for (size_t i : index_.files_defining_alias(*p))
        parse(i);
    for (auto &f : parsed_) {
      if (!f)
        continue;
      for (ast::ProbeAliasDecl *a : f->aliases)
        for (ast::ProbePoint *n : a->names)
          if (lang::point_could_name_alias(point, dotted_name(*n)) ||
              lang::point_could_name_alias(extended, dotted_name(*n)))
            collect_decl(*a);
    }
  }

  void parse(size_t i) {
    if (parsed_[i])
      return;
    const std::string &path = index_.files()[i].path;
    std::string err;
    // Tapsets are privileged: they may use embedded C.
    auto src = read_source_file(path, /*privileged=*/true, err);
    if (!src) {
      diag_.error(err);
      parsed_[i] = std::make_unique<ast::File>();
      return;
    }
    parsed_[i] = parse::parse_file(src, arena_, diag_, opts_);
    // Its plain probes (rare in tapsets) run whenever the file is used.
    for (ast::ProbeDecl *p : parsed_[i]->probes)
      collect_decl(*p);
  }

  void collect(ast::File &f) {
    NeedCollector c;
    c.visit_file(f);
    append(c);
  }
  void collect_decl(ast::Node &decl) {
    if (!collected_.insert(&decl).second)
      return;
    NeedCollector c;
    decl.accept(c);
    append(c);
  }
  void append(NeedCollector &c) {
    for (auto &s : c.symbols)
      needs_.symbols.push_back(std::move(s));
    for (auto &p : c.points)
      needs_.points.push_back(std::move(p));
  }

  const tapsets::TapsetIndex &index_;
  ast::Arena &arena_;
  const parse::ParseOptions &opts_;
  Diagnostics &diag_;
  std::vector<std::unique_ptr<ast::File>> parsed_; // by index position
  NeedCollector needs_;
  std::set<std::string> seen_symbols_, seen_points_;
  std::set<ast::Node *> collected_;
};

std::string read_all(const std::string &path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

} // namespace

std::shared_ptr<const parse::MacroTable> load_library_macros(const tapsets::TapsetFiles &files,
                                                            const parse::ParseOptions &opts,
                                                            Diagnostics &diag) {
  auto table = std::make_shared<parse::MacroTable>();
  for (const auto &p : files.macro_files) {
    std::string err;
    auto src = read_source_file(p, /*privileged=*/true, err);
    if (!src) {
      diag.error(err);
      continue;
    }
    parse::load_macro_file(src, *table, diag, opts);
  }
  return table;
}

tapsets::TapsetIndex index_tapsets(const tapsets::TapsetFiles &files) {
  tapsets::TapsetIndex index;
  for (const auto &p : files.script_files)
    index.add(tapsets::scan_tapset(p, read_all(p)));
  return index;
}

TapsetLoadStats load_tapsets(Program &program, ast::Arena &arena,
                             const tapsets::TapsetIndex &index, const parse::ParseOptions &opts,
                             Diagnostics &diag) {
  LazyLoader loader(index, arena, opts, diag);
  loader.need_all_of(*program.files.front());
  loader.run();
  TapsetLoadStats stats;
  stats.indexed = index.files().size();
  for (auto &f : loader.take_files()) {
    program.files.push_back(std::move(f));
    ++stats.parsed;
  }
  return stats;
}

} // namespace stap
