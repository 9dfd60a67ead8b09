#include "probes/function_scope.h"

#include "ast/visitor.h"
#include "debuginfo/kernel_debuginfo.h"

#include <map>
#include <tuple>

namespace stap::probes {
namespace {

uint64_t size_of(const debuginfo::TypeTable &tt, debuginfo::TypeId id) {
  const debuginfo::Type &t = tt[tt.strip(id)];
  return t.kind == debuginfo::Kind::Array ? 0 : t.size;
}

} // namespace

std::shared_ptr<const debuginfo::TargetScope>
function_scope(const ResolveEnv &env, const std::string &module, const std::string &function,
               bool is_return) {
  auto scope = std::make_shared<debuginfo::TargetScope>();
  if (!env.kernel_debuginfo) {
    scope->missing_reason = "no debuginfo is loaded here";
    return scope;
  }
  std::string why;
  const debuginfo::ObjectTypes *obj =
      env.kernel_debuginfo->object(module.empty() ? "kernel" : module, why);
  if (!obj) {
    scope->missing_reason = why;
    return scope;
  }
  auto f = obj->functions.find(function);
  if (f == obj->functions.end()) {
    // Compiler clones (f.isra.0, f.constprop.0) take other arguments than
    // the prototype says: they get none.
    scope->missing_reason = "the " + obj->source + " has no prototype for '" + function + "'";
    return scope;
  }
  const debuginfo::TypeTable &tt = *obj->types;
  const debuginfo::Type &proto = tt[f->second];
  scope->types = obj->types;
  scope->source = obj->source;
  const arch::Arch &a = env.arch;
  size_t reg = 0, stack_slot = 0;
  bool lost = false;
  for (const debuginfo::Member &p : proto.members) {
    debuginfo::TargetVar v;
    v.name = p.name.empty() ? "arg" + std::to_string(scope->vars.size() + 1) : p.name;
    v.type = p.type;
    v.parameter = true;
    uint64_t size = size_of(tt, p.type);
    if (lost) {
      v.loc.why_unavailable = "it follows a parameter passed by value in more than a register";
    } else if (size == 0 || size > a.long_size) {
      // Larger aggregates travel in register pairs or on the stack, which
      // moves every later parameter too: none of them is located here.
      lost = true;
      v.loc.why_unavailable = "it is passed by value and larger than a register ('" +
                              tt.c_name(p.type) + "')";
    } else if (reg < a.kernel_arg_regs.size()) {
      const arch::Register *r = arch::find_register(a, a.kernel_arg_regs[reg++]);
      v.loc.kind = r ? debuginfo::VarLocation::Value : debuginfo::VarLocation::Unavailable;
      if (r)
        v.loc.c_expr = arch::register_c(a, *r, "c->regs");
    } else {
      // At the first instruction the stack pointer is at the return
      // address; the stack arguments follow it, one long each.
      const arch::Register *sp = arch::find_register(a, a.sp_reg);
      v.loc.kind = sp ? debuginfo::VarLocation::Address : debuginfo::VarLocation::Unavailable;
      if (sp)
        v.loc.c_expr = "(" + arch::register_c(a, *sp, "c->regs") + " + " +
                       std::to_string(a.long_size * (1 + stack_slot++)) + ")";
    }
    scope->vars.push_back(std::move(v));
  }
  if (is_return && proto.target != debuginfo::void_type) {
    debuginfo::TargetVar r;
    r.name = "return";
    r.type = proto.target;
    r.loc.kind = debuginfo::VarLocation::Value;
    // The return register itself (regs_return_value() on x86), so guru
    // mode can assign $return.
    const arch::Register *ret = arch::find_register(a, a.return_reg);
    r.loc.c_expr = ret ? arch::register_c(a, *ret, "c->regs") : "regs_return_value(c->regs)";
    scope->return_value = std::move(r);
  }
  return scope;
}

bool uses_target_vars(const ast::ProbeDecl &decl) {
  struct Finder : ast::Visitor {
    bool found = false;
    void visit(ast::TargetExpr &) override { found = true; }
  } f;
  if (decl.body)
    decl.body->accept(f);
  return f.found;
}

} // namespace stap::probes
