#include "passes/perf_counters.h"

#include "ast/visitor.h"
#include "probes/perf.h"

#include <map>

namespace stap {
namespace probes {
const ProbeFamily &uprobe_family(); // probes/uprobe.cpp
}

namespace {

struct Counter {
  int64_t slot;
  SourceLoc loc;       // of its .counter("NAME")
  std::string program; // its .process("PATH"), resolved; "": any (.counter alone)
};

// The program of a process probe (its point's process("PATH"), resolved),
// or of a perf .process("PATH").counter(...); "" when it names none.
std::string program_of(const probes::ResolvedProbe &p) {
  for (const ast::ProbePointComponent &c : p.point->components)
    if (c.functor == "process")
      if (const ast::StringLit *s = probes::string_arg(c))
        return s->value;
  return "";
}

// Binds each @perf("NAME") to its counter's slot; `check_names`: an
// unknown NAME is an error here (process probes and functions), and in a
// probe of `programs`, so is a counter of another program: SystemTap 4.8
// knows in a process("PATH") probe only the counters of PATH and those
// without a .process (checked with its -p2).
class PerfReads : public ast::Visitor {
public:
  PerfReads(const std::map<std::string, Counter> &counters, Diagnostics &diag)
      : counters_(counters), diag_(diag) {}
  bool check_names = true;
  std::vector<std::string> programs;

  void visit(ast::AtOpExpr &n) override {
    Visitor::visit(n);
    if (n.name != "perf")
      return;
    auto *name = n.args.size() == 1 ? dynamic_cast<const ast::StringLit *>(n.args[0]) : nullptr;
    if (!name) {
      diag_.error(n.args.empty() ? n.loc : n.args[0]->loc,
                  "@perf takes one literal string: the name of a perf counter");
      return;
    }
    auto it = counters_.find(name->value);
    if (it == counters_.end()) {
      if (check_names)
        diag_.error(name->loc, "perf counter '" + name->value + "' not defined");
      return;
    }
    n.slot = it->second.slot;
    const std::string &counted = it->second.program;
    for (const std::string &program : programs)
      if (check_names && !counted.empty() && counted != program) {
        diag_.error(name->loc, "perf counter '" + name->value + "' not defined");
        diag_.note(it->second.loc, "'" + name->value + "' counts in '" + counted +
                                       "', not in '" + program + "' (where @perf reads it)");
        return;
      }
  }

private:
  const std::map<std::string, Counter> &counters_;
  Diagnostics &diag_;
};

bool is_process_probe(const probes::ResolvedProbe &p) {
  return p.family == &probes::uprobe_family();
}

// Whether every point of `decl` is a process probe (a body is shared by
// its points: one that is not cannot read a task's counter).
bool in_process_probes(const Program &program, const ast::ProbeDecl *decl) {
  bool any = false;
  for (const probes::ResolvedProbe &p : program.probes)
    if (p.decl == decl) {
      if (!is_process_probe(p))
        return false;
      any = true;
    }
  return any;
}

} // namespace

void resolve_perf_counters(Program &program, Diagnostics &diag) {
  std::map<std::string, Counter> counters;
  int64_t slots = 0;
  for (probes::ResolvedProbe &p : program.probes) {
    if (p.family != &probes::perf_family() || !probes::perf_task_bound(p))
      continue;
    int64_t slot = slots++;
    p.c_fields += ", .slot = " + std::to_string(slot);
    std::string name = probes::perf_counter_name(p);
    if (name.empty())
      continue;
    SourceLoc loc = p.point->components.back().loc;
    auto [it, added] = counters.emplace(name, Counter{slot, loc, program_of(p)});
    if (!added) {
      diag.error(loc, "duplicate counter name '" + name + "'");
      diag.note(it->second.loc, "the first counter named '" + name + "'");
    }
  }
  PerfReads reads(counters, diag);
  for (ast::ProbeDecl *d : program.files.front()->probes) {
    // elsewhere only the form is checked here: pass 3 rejects the use
    reads.check_names = in_process_probes(program, d);
    reads.programs.clear();
    for (const probes::ResolvedProbe &p : program.probes)
      if (p.decl == d && reads.check_names)
        reads.programs.push_back(program_of(p));
    reads.visit_stmt(d->body);
  }
  reads.check_names = true;
  reads.programs.clear(); // a function's callers are not known here
  for (ast::FunctionDecl *fn : program.functions)
    reads.visit_stmt(fn->body);
}

void check_perf_reads(Program &program, Diagnostics &diag) {
  struct Finder : ast::Visitor {
    std::vector<const ast::AtOpExpr *> found;
    void visit(ast::AtOpExpr &n) override {
      Visitor::visit(n);
      if (n.name == "perf")
        found.push_back(&n);
    }
  };
  for (ast::ProbeDecl *d : program.files.front()->probes) {
    if (in_process_probes(program, d))
      continue;
    Finder f;
    f.visit_stmt(d->body);
    for (const ast::AtOpExpr *at : f.found)
      diag.error(at->loc, "@perf reads the current thread's perf counter: only in a "
                          "process(\"PATH\").function, .statement or .mark probe "
                          "(or its .return)");
  }
}

} // namespace stap
