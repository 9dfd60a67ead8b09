#include "codegen/target_access.h"

#include "codegen/emitter.h"
#include "debuginfo/access_path.h"

namespace stap::codegen {
namespace {

using debuginfo::Kind;
using debuginfo::Place;
using debuginfo::Type;
using debuginfo::TypeId;
using debuginfo::TypeTable;

// Pretty printing appends to the buffer `_b` statement by statement; at
// most this many values per print (a task_struct has hundreds), and
// elements per array.
constexpr unsigned max_pretty_values = 64;
constexpr uint64_t max_pretty_elements = 8;

class Pretty {
public:
  Pretty(const debuginfo::WalkContext &ctx, bool deep) : ctx_(ctx), tt_(ctx.types), deep_(deep) {}
  std::string code;

  // Literal text is gathered and appended in one call before the next value.
  void text(const std::string &s) { pending_ += s; }
  std::string finish() {
    flush();
    return code;
  }
  void append_value(const std::string &c) {
    flush();
    code += c;
  }

  // The value at `p`; `depth` 0 is the printed variable itself.
  void value(const Place &p, unsigned depth) {
    if (++values_ > max_pretty_values) {
      if (values_ == max_pretty_values + 1)
        text("...");
      return;
    }
    TypeId id = tt_.strip(p.type);
    const Type &t = tt_[id];
    std::string user = p.user ? "1" : "0";
    switch (t.kind) {
    case Kind::Int: case Kind::Bool: case Kind::Enum:
      append_value(std::string("stp_appendf(_b, ") +
                   (t.is_signed ? "\"%lld\", (long long)" : "\"%llu\", (unsigned long long)") +
                   debuginfo::scalar_c(ctx_, p) + "); ");
      return;
    case Kind::Pointer: {
      std::string v = "(unsigned long)" + debuginfo::scalar_c(ctx_, p);
      const Type &to = tt_[tt_.strip(t.target)];
      if (debuginfo::is_char(tt_, t.target)) {
        // A `char __user *` is a string in user memory.
        std::string from = p.user || tt_.is_user(t.target) ? "1" : "0";
        append_value("stp_tv_append_string(_b, " + v + ", MAXSTRINGLEN, " + from + "); ");
      } else if (depth == 0 && (to.kind == Kind::Struct || to.kind == Kind::Union) &&
                 !to.declaration) {
        // `$file$`: the structure the pointer points at.
        aggregate(Place{t.target, true, "(" + v + ")", p.user || tt_.is_user(t.target)}, depth);
      } else {
        append_value("stp_appendf(_b, \"0x%lx\", " + v + "); ");
      }
      return;
    }
    case Kind::Array:
      if (!p.address) {
        text("[...]");
      } else if (debuginfo::is_char(tt_, t.target)) {
        append_value("stp_tv_append_string(_b, " + p.c + ", " + std::to_string(t.count) + ", " +
                     user + "); ");
      } else {
        uint64_t n = std::min<uint64_t>(t.count, max_pretty_elements);
        uint64_t size = tt_[tt_.strip(t.target)].size;
        text("[");
        for (uint64_t i = 0; i < n && size; ++i) {
          if (i)
            text(", ");
          value(Place{t.target, true, "(" + p.c + " + " + std::to_string(i * size) + "UL)", p.user},
                depth + 1);
        }
        text(t.count > n ? ", ...]" : "]");
      }
      return;
    case Kind::Struct: case Kind::Union:
      if (depth > 0 && !deep_)
        text("{...}");
      else
        aggregate(p, depth);
      return;
    default:
      text("?");
      return;
    }
  }

private:
  void flush() {
    if (!pending_.empty())
      code += "stp_appendf(_b, \"%s\", " + c_string_literal(pending_) + "); ";
    pending_.clear();
  }
  void aggregate(const Place &p, unsigned depth) {
    const Type &t = tt_[tt_.strip(p.type)];
    if (!p.address || t.declaration || depth > 4) {
      text("{...}");
      return;
    }
    text("{");
    bool first = true;
    members(p, t, depth, first);
    text("}");
  }
  // Anonymous members' members are listed in place, as C initializers
  // name them.
  void members(const Place &p, const Type &t, unsigned depth, bool &first) {
    for (const debuginfo::Member &m : t.members) {
      Place at{m.type, true, "(" + p.c + " + " + std::to_string(m.bit_offset / 8) + "UL)", p.user};
      if (m.bit_size) {
        at.bit_offset = m.bit_offset % 8;
        at.bit_size = m.bit_size;
      }
      const Type &mt = tt_[tt_.strip(m.type)];
      if (m.name.empty() && (mt.kind == Kind::Struct || mt.kind == Kind::Union)) {
        members(at, mt, depth, first);
        continue;
      }
      if (values_ >= max_pretty_values)
        break;
      text(std::string(first ? "" : ", ") + "." + m.name + "=");
      first = false;
      value(at, depth + 1);
    }
  }

  const debuginfo::WalkContext &ctx_;
  const TypeTable &tt_;
  bool deep_;
  unsigned values_ = 0;
  std::string pending_;
};

std::string where_literal(const std::string &name, const SourceLoc &loc) {
  return c_string_literal("'" + name + "' at " + loc_string(loc));
}

std::string pretty_suffix(const std::vector<ast::TargetComponent> &cs) {
  return !cs.empty() && cs.back().kind == ast::TargetComponent::Pretty ? cs.back().name : "";
}

// The C of a checked chain from `start`.
std::string chain_c(const TypeTable &tt, Place start, const std::string &name,
                    const std::vector<ast::TargetComponent> &cs, bool addressof, SourceLoc loc,
                    const TargetAccessHooks &hooks, Diagnostics &diag) {
  debuginfo::WalkContext ctx{tt, hooks.expr, where_literal(name, loc)};
  debuginfo::AccessError err;
  auto end = debuginfo::walk(ctx, std::move(start), name, cs, err);
  std::string pretty = pretty_suffix(cs);
  auto use = end ? debuginfo::classify(tt, *end, debuginfo::chain_name(name, cs), addressof, pretty,
                                       loc, err)
                 : std::nullopt;
  if (!use) {
    diag.error(err.loc, err.message);
    return "((s64)0)";
  }
  switch (*use) {
  case debuginfo::Use::Scalar:
    return debuginfo::scalar_c(ctx, *end);
  case debuginfo::Use::Address:
    return "((s64)" + end->c + ")";
  case debuginfo::Use::Pretty:
  case debuginfo::Use::PrettyDeep: {
    Pretty p(ctx, *use == debuginfo::Use::PrettyDeep);
    p.value(*end, 0);
    return "({ char *_b = " + hooks.string_temp() + "; _b[0] = '\\0'; " + p.finish() + "_b; })";
  }
  }
  return "((s64)0)";
}

// `$$vars`, `$$parms`, `$$locals`, `$$return`: "name=0x... name=0x...",
// each value pretty-printed with a `$` / `$$` suffix.
std::string list_c(const TypeTable &tt, const std::vector<const debuginfo::TargetVar *> &vars,
                   const std::string &pretty, const std::string &name, SourceLoc loc,
                   const TargetAccessHooks &hooks) {
  debuginfo::WalkContext ctx{tt, hooks.expr, where_literal(name, loc)};
  Pretty p(ctx, pretty == "$$");
  for (size_t i = 0; i < vars.size(); ++i) {
    const debuginfo::TargetVar &v = *vars[i];
    p.text((i ? " " : "") + v.name + "=");
    auto start = debuginfo::start_place(v);
    if (!start) {
      p.text("?");
      continue;
    }
    const Type &t = tt[tt.strip(v.type)];
    bool scalar = t.kind == Kind::Int || t.kind == Kind::Bool || t.kind == Kind::Enum ||
                  t.kind == Kind::Pointer;
    if (!pretty.empty())
      p.value(*start, 1);
    else if (scalar)
      p.append_value("stp_appendf(_b, \"0x%llx\", (unsigned long long)" +
                     debuginfo::scalar_c(ctx, *start) + "); ");
    else
      p.text("{...}");
  }
  return "({ char *_b = " + hooks.string_temp() + "; _b[0] = '\\0'; " + p.finish() + "_b; })";
}

} // namespace

std::string target_expr_c(const debuginfo::TargetScope &scope, ast::TargetExpr &n,
                          const TargetAccessHooks &hooks, Diagnostics &diag) {
  std::string why;
  auto ref = debuginfo::find_target(scope, n.name, "", why);
  if (!ref) {
    diag.error(n.loc, why);
    return "((s64)0)";
  }
  if (ref->is_list)
    return list_c(*scope.types, ref->list, pretty_suffix(n.components), n.name, n.loc, hooks);
  auto start = debuginfo::start_place(*ref->var);
  if (!start) {
    diag.error(n.loc, "'" + n.name + "' is not available here (optimized out)");
    return "((s64)0)";
  }
  return chain_c(*scope.types, *start, n.name, n.components, n.addressof, n.loc, hooks, diag);
}

std::string cast_expr_c(ast::CastExpr &n, const TargetAccessHooks &hooks, Diagnostics &diag) {
  if (!n.types) {
    diag.error(n.loc, "@cast to '" + n.type_or_var + "' has no type (pass 2 did not bind it)");
    return "((s64)0)";
  }
  if (n.kind == ast::CastExpr::Var) {
    Place start{n.type_id, n.var_address, n.var_c, n.user};
    return chain_c(*n.types, start, "@var(\"" + n.type_or_var + "\")", n.components,
                   n.addressof, n.loc, hooks, diag);
  }
  Place start{n.type_id, true, "((unsigned long)" + hooks.expr(n.operand) + ")", n.user};
  std::string label = "@cast(..., \"" + n.type_or_var + "\")";
  return chain_c(*n.types, start, label, n.components, n.addressof, n.loc, hooks, diag);
}

std::string autocast_expr_c(ast::AutocastExpr &n, const TargetAccessHooks &hooks,
                            Diagnostics &diag) {
  if (!n.types) {
    diag.error(n.loc, "'->' on a value without a type (pass 2 did not bind it)");
    return "((s64)0)";
  }
  Place start{n.type_id, n.operand_address, "((unsigned long)" + hooks.expr(n.operand) + ")",
              n.operand_user};
  std::string label = "->";
  if (auto *s = dynamic_cast<ast::SymbolExpr *>(n.operand))
    label = s->name;
  else if (auto *c = dynamic_cast<ast::CallExpr *>(n.operand))
    label = c->name + "()";
  return chain_c(*n.types, start, label, n.components, n.addressof, n.loc, hooks, diag);
}

namespace {

// Where a written chain starts: its types, place, name and components.
struct ChainStart {
  const TypeTable *tt = nullptr;
  Place place;
  std::string name;
  const std::vector<ast::TargetComponent> *cs = nullptr;
};

std::optional<ChainStart> chain_start(const debuginfo::TargetScope *scope, ast::Expr &e,
                                      const TargetAccessHooks &hooks) {
  if (auto *t = dynamic_cast<ast::TargetExpr *>(&e)) {
    std::string why;
    auto ref = scope && scope->types ? debuginfo::find_target(*scope, t->name, "", why)
                                     : std::nullopt;
    auto start = ref && ref->var ? debuginfo::start_place(*ref->var) : std::nullopt;
    if (!start)
      return std::nullopt;
    return ChainStart{scope->types.get(), *start, t->name, &t->components};
  }
  if (auto *c = dynamic_cast<ast::CastExpr *>(&e); c && c->types && c->kind == ast::CastExpr::Var)
    return ChainStart{c->types.get(), Place{c->type_id, c->var_address, c->var_c, c->user},
                      "@var(\"" + c->type_or_var + "\")", &c->components};
  if (auto *c = dynamic_cast<ast::CastExpr *>(&e); c && c->types && c->kind == ast::CastExpr::Cast)
    return ChainStart{c->types.get(),
                      Place{c->type_id, true, "((unsigned long)" + hooks.expr(c->operand) + ")",
                            c->user},
                      "@cast(..., \"" + c->type_or_var + "\")", &c->components};
  if (auto *a = dynamic_cast<ast::AutocastExpr *>(&e); a && a->types) {
    std::string name = "->";
    if (auto *s = dynamic_cast<ast::SymbolExpr *>(a->operand))
      name = s->name;
    return ChainStart{a->types.get(),
                      Place{a->type_id, a->operand_address,
                            "((unsigned long)" + hooks.expr(a->operand) + ")", a->operand_user},
                      name, &a->components};
  }
  return std::nullopt;
}

} // namespace

std::string target_store_c(const debuginfo::TargetScope *scope, ast::Expr &target,
                           const std::string &value, const TargetAccessHooks &hooks,
                           Diagnostics &diag) {
  auto start = chain_start(scope, target, hooks);
  if (!start) {
    diag.error(target.loc, "cannot write here (pass 2 did not bind the target)");
    return "";
  }
  debuginfo::WalkContext ctx{*start->tt, hooks.expr, where_literal(start->name, target.loc)};
  debuginfo::AccessError err;
  auto end = debuginfo::walk(ctx, start->place, start->name, *start->cs, err);
  if (!end) {
    diag.error(err.loc, err.message);
    return "";
  }
  if (end->address && !end->bit_size) {
    const Type &t = (*start->tt)[start->tt->strip(end->type)];
    uint64_t size = t.size ? t.size : 8;
    return "stp_tv_write(c, " + end->c + ", " + std::to_string(size) + ", (u64)(" + value +
           "), " + (end->user ? "1" : "0") + ", " + ctx.where + ");";
  }
  auto lv = debuginfo::register_lvalue(*end);
  if (!lv) {
    diag.error(target.loc, "cannot write '" + start->name + "' here");
    return "";
  }
  return *lv + " = (unsigned long)(" + value + ");";
}

std::string scope_signature(const debuginfo::TargetScope &scope) {
  std::string s = std::to_string(reinterpret_cast<uintptr_t>(scope.types.get())) + "|" +
                  scope.missing_reason;
  auto var = [&](const debuginfo::TargetVar &v) {
    s += "|" + v.name + ":" + std::to_string(v.type) + ":" + std::to_string(v.loc.kind) + ":" +
         (v.loc.user ? "u:" : "k:") + v.loc.c_expr + (v.parameter ? ":p" : "");
  };
  for (const auto &v : scope.vars)
    var(v);
  if (scope.return_value) {
    s += "|ret";
    var(*scope.return_value);
  }
  return s;
}

} // namespace stap::codegen
