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

// Where a function's parameters are at its first instruction, one after
// the other, by the kernel's calling convention: the argument registers,
// then the stack above the return address. On x86_64 (the SysV ABI) a
// struct or union of 9-16 bytes takes two registers, or two stack slots
// when fewer are left (the registers then stay for later arguments); a
// larger one is copied onto the stack, where it is read in place.
// Kernel code passes no floating point (-mno-sse). The 32-bit kernel
// (regparm(3)) has no BTF, so wider values there are left unlocated, and
// so is everything after them.
class ArgumentPlaces {
public:
  explicit ArgumentPlaces(const arch::Arch &a) : a_(a) {}

  debuginfo::VarLocation next(const debuginfo::TypeTable &tt, debuginfo::TypeId type) {
    debuginfo::VarLocation loc;
    uint64_t size = size_of(tt, type);
    uint64_t words = (size + a_.long_size - 1) / a_.long_size;
    if (lost_) {
      loc.why_unavailable = "it follows a parameter passed by value in more than a register";
      return loc;
    }
    bool wide_abi = a_.long_size == 8;
    if (size == 0 || (size > a_.long_size && !wide_abi)) {
      lost_ = true;
      loc.why_unavailable = "it is passed by value and larger than a register ('" +
                            tt.c_name(type) + "')";
      return loc;
    }
    if (words <= 2 && reg_ + words <= a_.kernel_arg_regs.size()) {
      std::string lo = reg(reg_), hi = words == 2 ? reg(reg_ + 1) : "";
      reg_ += words;
      if (lo.empty() || (words == 2 && hi.empty()))
        return loc;
      loc.kind = debuginfo::VarLocation::Value;
      loc.c_expr = words == 1 ? lo
                              : "((((unsigned __int128)" + hi + ") << 64) | (unsigned __int128)" +
                                    lo + ")";
      return loc;
    }
    // On the stack: at the first instruction the stack pointer is at the
    // return address, and the arguments follow it, a long each.
    const arch::Register *sp = arch::find_register(a_, a_.sp_reg);
    if (!sp)
      return loc;
    loc.kind = debuginfo::VarLocation::Address;
    loc.c_expr = "(" + arch::register_c(a_, *sp, "c->regs") + " + " +
                 std::to_string(a_.long_size * (1 + stack_slot_)) + ")";
    stack_slot_ += words;
    return loc;
  }

private:
  std::string reg(size_t i) const {
    const arch::Register *r = arch::find_register(a_, a_.kernel_arg_regs[i]);
    return r ? arch::register_c(a_, *r, "c->regs") : "";
  }

  const arch::Arch &a_;
  size_t reg_ = 0, stack_slot_ = 0;
  bool lost_ = false;
};

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
  ArgumentPlaces places(a);
  for (const debuginfo::Member &p : proto.members) {
    debuginfo::TargetVar v;
    v.name = p.name.empty() ? "arg" + std::to_string(scope->vars.size() + 1) : p.name;
    v.type = p.type;
    v.parameter = true;
    v.loc = places.next(tt, p.type);
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
    // x86_64 returns a struct of 9-16 bytes in rax:rdx, and a larger one
    // in memory the caller provides, whose address comes back in rax.
    uint64_t size = size_of(tt, proto.target);
    const arch::Register *dx = arch::find_register(a, "dx");
    if (a.long_size == 8 && size > 16 && ret) {
      r.loc.kind = debuginfo::VarLocation::Address;
    } else if (a.long_size == 8 && size > 8 && ret && dx) {
      r.loc.c_expr = "((((unsigned __int128)" + arch::register_c(a, *dx, "c->regs") +
                     ") << 64) | (unsigned __int128)" + r.loc.c_expr + ")";
    }
    scope->return_value = std::move(r);
  }
  return scope;
}

namespace {

// Does `decl`'s body hold a node of type T?
template <typename T> bool body_has(const ast::ProbeDecl &decl) {
  struct Finder : ast::Visitor {
    bool found = false;
    void visit(T &) override { found = true; }
  } f;
  if (decl.body)
    decl.body->accept(f);
  return f.found;
}

} // namespace

bool uses_target_vars(const ast::ProbeDecl &decl) { return body_has<ast::TargetExpr>(decl); }

bool uses_casts(const ast::ProbeDecl &decl) { return body_has<ast::CastExpr>(decl); }

} // namespace stap::probes
