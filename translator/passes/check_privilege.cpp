#include "passes/check_privilege.h"

#include "ast/visitor.h"

namespace stap {

std::optional<Privilege> parse_privilege(std::string_view name) {
  if (name == "stapdev")
    return Privilege::StapDev;
  if (name == "stapsys")
    return Privilege::StapSys;
  if (name == "stapusr")
    return Privilege::StapUsr;
  return std::nullopt;
}

std::string_view privilege_name(Privilege p) {
  switch (p) {
  case Privilege::StapDev: return "stapdev";
  case Privilege::StapSys: return "stapsys";
  case Privilege::StapUsr: return "stapusr";
  }
  return "";
}

bool unprivileged_probe_point(std::string_view pp) {
  std::string_view root = pp.substr(0, pp.find_first_of(".("));
  if (root == "timer") // timer.profile is perf's, and sees every process
    return pp.rfind("timer.profile", 0) != 0;
  return root == "begin" || root == "end" || root == "error" || root == "never" ||
         root == "process";
}

bool unprivileged_function(const ast::FunctionDecl &fn) {
  auto *c = dynamic_cast<const ast::EmbeddedStmt *>(fn.body);
  return !c || c->code.find("/* unprivileged */") != std::string::npos ||
         c->code.find("/* myproc-unprivileged */") != std::string::npos;
}

namespace {

class PrivilegedCalls : public ast::Visitor {
public:
  explicit PrivilegedCalls(Diagnostics &d) : diag_(d) {}

  void visit(ast::CallExpr &n) override {
    // Any overload the call may run counts: the chain is chosen at run time.
    for (const ast::FunctionDecl *fn : n.overloads)
      if (!unprivileged_function(*fn)) {
        diag_.error(n.loc, "function may not be used when --privilege=stapusr is specified: '" +
                               n.name + "'");
        break;
      }
    ast::Visitor::visit(n);
  }

private:
  Diagnostics &diag_;
};

} // namespace

void check_privilege(Program &program, Privilege privilege, Diagnostics &diag) {
  if (privilege != Privilege::StapUsr)
    return;
  for (const probes::ResolvedProbe &p : program.probes) {
    if (unprivileged_probe_point(p.pp))
      continue;
    // Where the point is written: the user's probe, or the alias body it
    // expanded to (syscall.read is kernel.trace("sys_enter") in a tapset).
    SourceLoc loc = p.point ? p.point->loc : p.decl->loc;
    diag.error(loc, "probe point is not allowed for --privilege=stapusr");
    if (p.point && p.decl && loc.file != p.decl->loc.file)
      diag.note(p.decl->loc, "in probe point '" + p.pn + "', which expands to '" + p.pp + "'");
  }
  PrivilegedCalls calls(diag);
  for (ast::ProbeDecl *p : program.files.front()->probes)
    calls.visit_stmt(p->body);
  for (ast::FunctionDecl *fn : program.functions)
    calls.visit_stmt(fn->body);
}

} // namespace stap
