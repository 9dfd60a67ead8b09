#include "passes/autocast.h"

#include "ast/visitor.h"
#include "passes/target_vars.h"

#include <map>

namespace stap {
namespace {

using debuginfo::AccessError;
using debuginfo::Place;

// The debuginfo type a script value carries: a pointer value, or the
// address of an object (`&$x->f`, an array).
struct Carried {
  std::shared_ptr<const debuginfo::TypeTable> types;
  debuginfo::TypeId type = 0;
  bool address = false;
  bool user = false;

  std::string spelling() const {
    std::string s = debuginfo::listing_name(*types, type);
    return address ? s + "*" : s;
  }
  bool same(const Carried &o) const {
    if (address != o.address || user != o.user)
      return false;
    // Points of one wildcard may hold their types in different tables
    // (DWARF compile units): the same type by name lays out alike.
    return (types == o.types && type == o.type) || spelling() == o.spelling();
  }
};

// What a variable (or a function's return) carries: nothing yet, one
// type, or several (then nothing, as in 4.8). Only ever moves forward.
struct Slot {
  std::optional<Carried> one;
  bool conflict = false;
  std::string first, second; // the conflicting types, for the error

  bool merge(const Carried &c) {
    if (conflict)
      return false;
    if (!one) {
      one = c;
      return true;
    }
    if (one->same(c))
      return false;
    conflict = true;
    first = one->spelling();
    second = c.spelling();
    one.reset();
    return true;
  }
};

std::optional<Carried> carried_by(const TypedResult &r) {
  if (r.is_list || !r.types)
    return std::nullopt;
  const debuginfo::TypeTable &tt = *r.types;
  if (r.use == debuginfo::Use::Address)
    return Carried{r.types, r.end.type, true, r.end.user};
  if (r.use == debuginfo::Use::Scalar && !r.end.bit_size &&
      tt[tt.strip(r.end.type)].kind == debuginfo::Kind::Pointer)
    return Carried{r.types, r.end.type, false, r.end.user};
  return std::nullopt;
}

// Where an autocast chain starts: at the value (or address) of its operand.
Place start_of(const Carried &c) {
  return Place{c.type, c.address, "((unsigned long)0)", c.user};
}

std::string operand_name(const ast::Expr *e) {
  if (auto *s = dynamic_cast<const ast::SymbolExpr *>(e))
    return s->name;
  if (auto *c = dynamic_cast<const ast::CallExpr *>(e))
    return c->name + "()";
  return "the value";
}

// The walk of an autocast chain from what its operand carries.
std::optional<TypedResult> autocast_result(const Carried &c, const ast::AutocastExpr &n,
                                           AccessError &err) {
  return typed_chain(c.types, start_of(c), operand_name(n.operand), n.components, n.addressof,
                     n.loc, err);
}

class Autocasts {
public:
  Autocasts(const probes::ResolveEnv &env, Program &program, Diagnostics &diag)
      : env_(env), program_(program), diag_(diag) {}

  void run() {
    type_target_exprs();
    // Slots only move forward (unset, one type, conflict): this ends.
    for (unsigned round = 0; round < 64; ++round) {
      changed_ = false;
      for_each_body([&](ast::Stmt *body, ast::FunctionDecl *fn) {
        Gather g(*this, fn);
        body->accept(g);
      });
      if (!changed_)
        break;
    }
    for_each_body([&](ast::Stmt *body, ast::FunctionDecl *) {
      Bind b(*this);
      body->accept(b);
    });
  }

private:
  template <typename F> void for_each_body(F &&f) {
    for (ast::ProbeDecl *decl : probe_decls())
      if (decl->body)
        f(decl->body, nullptr);
    for (ast::FunctionDecl *fn : program_.functions)
      if (fn->body)
        f(fn->body, fn);
  }
  std::vector<ast::ProbeDecl *> probe_decls() {
    std::vector<ast::ProbeDecl *> out;
    for (const auto &rp : program_.probes)
      if (std::find(out.begin(), out.end(), rp.decl) == out.end())
        out.push_back(rp.decl);
    return out;
  }

  // Each pointer-valued `$var` chain, as every point of its body sees it.
  void type_target_exprs() {
    struct Collect : ast::Visitor {
      Autocasts &self;
      const probes::ResolvedProbe &rp;
      Collect(Autocasts &s, const probes::ResolvedProbe &r) : self(s), rp(r) {}
      void visit(ast::TargetExpr &n) override {
        Visitor::visit(n);
        AccessError err;
        std::optional<Carried> c;
        if (rp.scope && rp.scope->types)
          if (auto r = target_result(rp, n, err))
            c = carried_by(*r);
        auto &slot = self.targets_[&n];
        if (c)
          slot.merge(*c);
        else if (slot.one) // typed at one point, not at another
          slot.conflict = true, slot.one.reset();
      }
    };
    for (const auto &rp : program_.probes)
      if (rp.decl->body) {
        Collect c(*this, rp);
        rp.decl->body->accept(c);
      }
  }

  std::optional<Carried> carried(ast::Expr *e) {
    if (!e)
      return std::nullopt;
    if (auto *t = dynamic_cast<ast::TargetExpr *>(e)) {
      auto it = targets_.find(t);
      return it == targets_.end() ? std::nullopt : it->second.one;
    }
    if (auto *c = dynamic_cast<ast::CastExpr *>(e)) {
      AccessError err;
      if (c->kind != ast::CastExpr::Cast)
        return std::nullopt;
      auto r = cast_result(env_, *c, err);
      return r ? carried_by(*r) : std::nullopt;
    }
    if (auto *a = dynamic_cast<ast::AutocastExpr *>(e)) {
      auto from = carried(a->operand);
      if (!from)
        return std::nullopt;
      AccessError err;
      auto r = autocast_result(*from, *a, err);
      return r ? carried_by(*r) : std::nullopt;
    }
    if (auto *s = dynamic_cast<ast::SymbolExpr *>(e)) {
      if (s->local)
        return locals_[s->local].one;
      if (s->global)
        return globals_[s->global].one;
      return std::nullopt;
    }
    if (auto *call = dynamic_cast<ast::CallExpr *>(e)) {
      if (call->callee && call->overloads.size() <= 1)
        return returns_[call->callee].one;
      return std::nullopt;
    }
    if (auto *as = dynamic_cast<ast::AssignExpr *>(e))
      return as->op == ast::AssignOp::Assign ? carried(as->value) : std::nullopt;
    if (auto *t = dynamic_cast<ast::TernaryExpr *>(e)) {
      auto a = carried(t->then_expr), b = carried(t->else_expr);
      return a && b && a->same(*b) ? a : std::nullopt;
    }
    return std::nullopt;
  }

  const Slot *slot_of(ast::Expr *e) {
    if (auto *s = dynamic_cast<ast::SymbolExpr *>(e)) {
      if (s->local)
        return &locals_[s->local];
      if (s->global)
        return &globals_[s->global];
    }
    if (auto *call = dynamic_cast<ast::CallExpr *>(e); call && call->callee)
      return &returns_[call->callee];
    if (auto *t = dynamic_cast<ast::TargetExpr *>(e); t && targets_.count(t))
      return &targets_[t];
    return nullptr;
  }

  // Records what assignments and returns carry.
  struct Gather : ast::Visitor {
    Autocasts &self;
    ast::FunctionDecl *fn;
    Gather(Autocasts &s, ast::FunctionDecl *f) : self(s), fn(f) {}
    void visit(ast::AssignExpr &n) override {
      Visitor::visit(n);
      auto *sym = n.op == ast::AssignOp::Assign ? dynamic_cast<ast::SymbolExpr *>(n.target) : nullptr;
      if (!sym)
        return;
      if (auto c = self.carried(n.value)) {
        Slot &slot = sym->local ? self.locals_[sym->local] : self.globals_[sym->global];
        if ((sym->local || sym->global) && slot.merge(*c))
          self.changed_ = true;
      }
    }
    void visit(ast::ReturnStmt &n) override {
      Visitor::visit(n);
      if (!fn)
        return;
      if (auto c = self.carried(n.value))
        if (self.returns_[fn].merge(*c))
          self.changed_ = true;
    }
  };

  // Binds each autocast to its operand's type and types it, or says why not.
  struct Bind : ast::Visitor {
    Autocasts &self;
    explicit Bind(Autocasts &s) : self(s) {}
    void visit(ast::AutocastExpr &n) override {
      Visitor::visit(n);
      SourceLoc at = n.components.empty() ? n.loc : n.components.front().loc;
      auto from = self.carried(n.operand);
      if (!from) {
        std::string name = operand_name(n.operand);
        const Slot *slot = self.slot_of(n.operand);
        if (slot && slot->conflict && !slot->first.empty())
          self.diag_.error(at, "unknown type in dereference: '" + name +
                                   "' holds values of different types ('" + slot->first +
                                   "' and '" + slot->second + "')");
        else
          self.diag_.error(at, "unknown type in dereference: '" + name +
                                   "' carries no debuginfo type (autocast needs a value from a "
                                   "typed $variable, @cast or '&')");
        return;
      }
      AccessError err;
      auto r = autocast_result(*from, n, err);
      if (!r) {
        self.diag_.error(err.loc, err.message);
        return;
      }
      n.types = from->types;
      n.type_id = from->type;
      n.operand_address = from->address;
      n.operand_user = from->user;
      n.type = script_type(r->use);
    }
  };

  const probes::ResolveEnv &env_;
  Program &program_;
  Diagnostics &diag_;
  bool changed_ = false;
  std::map<ast::TargetExpr *, Slot> targets_;
  std::map<ast::VarDecl *, Slot> locals_;
  std::map<ast::GlobalDecl *, Slot> globals_;
  std::map<ast::FunctionDecl *, Slot> returns_;
};

} // namespace

std::optional<TypedResult> bound_autocast_result(const ast::AutocastExpr &n, AccessError &err) {
  if (!n.types)
    return std::nullopt;
  return autocast_result(Carried{n.types, n.type_id, n.operand_address, n.operand_user}, n, err);
}

void resolve_autocasts(const probes::ResolveEnv &env, Program &program, Diagnostics &diag) {
  Autocasts(env, program, diag).run();
}

} // namespace stap
