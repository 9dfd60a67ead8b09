#include "debuginfo/access_path.h"

namespace stap::debuginfo {
namespace {

bool is_aggregate(const Type &t) { return t.kind == Kind::Struct || t.kind == Kind::Union; }
bool is_scalar(const Type &t) {
  return t.kind == Kind::Int || t.kind == Kind::Bool || t.kind == Kind::Enum ||
         t.kind == Kind::Pointer;
}

// Bytes of `id`: arrays multiply out, pointers are a long (readers record
// the target's pointer size on each pointer type).
uint64_t size_of(const TypeTable &tt, TypeId id, unsigned depth = 0) {
  id = tt.strip(id);
  const Type &t = tt[id];
  if (t.kind == Kind::Array)
    return depth > 16 ? 0 : t.count * size_of(tt, t.target, depth + 1);
  return t.size;
}

std::string kind_word(const Type &t) {
  return t.kind == Kind::Union ? "union" : t.kind == Kind::Enum ? "enum" : "struct";
}

// "(alternatives: f_u f_path f_inode ...)": the members a misspelt name
// could have meant, anonymous members' members included.
void member_names(const TypeTable &tt, TypeId id, std::vector<std::string> &out, unsigned depth) {
  const Type &t = tt[tt.strip(id)];
  if (!is_aggregate(t) || depth > 8)
    return;
  for (const Member &m : t.members) {
    if (m.name.empty())
      member_names(tt, m.type, out, depth + 1);
    else
      out.push_back(m.name);
  }
}

std::string alternatives(const TypeTable &tt, TypeId id) {
  std::vector<std::string> names;
  member_names(tt, id, names, 0);
  if (names.empty())
    return "";
  std::string s = " (alternatives:";
  for (size_t i = 0; i < names.size() && i < 24; ++i)
    s += " " + names[i];
  if (names.size() > 24)
    s += " ...";
  return s + ")";
}

// The value of the pointer at `p` as C (reading it when it is in memory).
std::string pointer_value(const WalkContext &ctx, const Place &p) {
  if (!p.address)
    return "((unsigned long)(" + p.c + "))";
  uint64_t size = size_of(ctx.types, p.type);
  return "((unsigned long)stp_tv_read(c, " + p.c + ", " + std::to_string(size ? size : 8) + ", " +
         (p.user ? "1" : "0") + ", " + ctx.where + "))";
}

std::string offset_c(const std::string &base, uint64_t bytes) {
  return bytes ? "(" + base + " + " + std::to_string(bytes) + "UL)" : base;
}

} // namespace

std::optional<TargetRef> find_target(const TargetScope &scope, const std::string &name,
                                     const std::string &pp, std::string &why) {
  TargetRef r;
  if (name == "$$vars" || name == "$$parms" || name == "$$locals" || name == "$$return") {
    r.is_list = true;
    if (name == "$$return") {
      if (scope.return_value)
        r.list.push_back(&*scope.return_value);
      return r;
    }
    for (const TargetVar &v : scope.vars)
      if (!v.global && (name == "$$vars" || v.parameter == (name == "$$parms")))
        r.list.push_back(&v);
    return r;
  }
  std::string bare = name.substr(1);
  if (bare == "return" && scope.return_value) {
    r.var = &*scope.return_value;
    return r;
  }
  if ((r.var = scope.find(bare)))
    return r;
  if (!scope.missing_reason.empty()) {
    why = "cannot read '" + name + "' at '" + pp + "': " + scope.missing_reason;
    return std::nullopt;
  }
  std::string have;
  for (const TargetVar &v : scope.vars)
    if (!v.global) // a program's globals would bury the locals
      have += (have.empty() ? "" : " $") + v.name;
  if (scope.return_value)
    have += have.empty() ? "return" : " $return";
  why = "unable to find local '" + bare + "' at '" + pp + "'" +
        (have.empty() ? std::string(" (no target variables there)")
                      : " (alternatives: $" + have + ")");
  return std::nullopt;
}

std::optional<Place> start_place(const TargetVar &v) {
  if (v.loc.kind == VarLocation::Unavailable)
    return std::nullopt;
  Place p;
  p.type = v.type;
  p.address = v.loc.kind == VarLocation::Address;
  p.c = p.address ? "((unsigned long)(" + v.loc.c_expr + "))" : v.loc.c_expr;
  p.user = v.loc.user;
  return p;
}

std::optional<Place> walk(const WalkContext &ctx, Place p, const std::string &start_name,
                          const std::vector<ast::TargetComponent> &cs, AccessError &err) {
  const TypeTable &tt = ctx.types;
  std::string name = start_name;
  auto fail = [&](SourceLoc loc, std::string msg) {
    err = {loc, std::move(msg)};
    return std::nullopt;
  };
  for (const ast::TargetComponent &comp : cs) {
    if (comp.kind == ast::TargetComponent::Pretty)
      break;
    if (p.bit_size)
      return fail(comp.loc, "'" + name + "' is a bitfield: it has no members or elements");
    TypeId id = tt.strip(p.type);
    const Type *t = &tt[id];
    if (comp.kind == ast::TargetComponent::Member) {
      if (t->kind == Kind::Pointer && is_aggregate(tt[tt.strip(t->target)])) {
        p = Place{t->target, true, pointer_value(ctx, p), p.user || tt.is_user(t->target)};
        id = tt.strip(p.type);
        t = &tt[id];
      }
      if (!is_aggregate(*t))
        return fail(comp.loc, "'" + name + "' is '" + tt.c_name(p.type) +
                                  "', not a struct or union or a pointer to one: it has no "
                                  "member '" + comp.name + "'");
      if (t->declaration)
        return fail(comp.loc, kind_word(*t) + " " + t->name + " has no definition in the "
                                                              "debuginfo: no member '" +
                                  comp.name + "'");
      std::optional<Member> m = tt.member(id, comp.name);
      if (!m)
        return fail(comp.loc, "unable to find member '" + comp.name + "' for " +
                                  tt.c_name(id) + alternatives(tt, id));
      if (!p.address) {
        // A struct or union passed by value in a register (or a register
        // pair read as one value, an unsigned __int128 on x86_64): a
        // scalar member is bits of that value.
        const Type &mt = tt[tt.strip(m->type)];
        uint64_t bits = m->bit_size ? m->bit_size : size_of(tt, m->type) * 8;
        unsigned width = t->size > 8 ? 128 : 64;
        if (!is_scalar(mt) || bits == 0 || m->bit_offset + bits > width)
          return fail(comp.loc, "'" + name + "' is a " + kind_word(*t) +
                                    " held in registers: only its integer and pointer members "
                                    "within " + std::to_string(width) + " bits can be read ('" +
                                    comp.name + "' is '" + tt.c_name(m->type) + "')");
        std::string v = "((u64)(" + p.c + ")";
        if (width == 128)
          v = "((u64)(((unsigned __int128)(" + p.c + ")) >> " + std::to_string(m->bit_offset) + ")";
        else if (m->bit_offset)
          v = "(" + v + " >> " + std::to_string(m->bit_offset) + ")";
        if (bits < 64)
          v = "(" + v + " & " + std::to_string((1ULL << bits) - 1) + "ULL)";
        p = Place{m->type, false, v + ")", p.user};
        name += "->" + comp.name;
        continue;
      }
      Place next{m->type, true, "", p.user};
      if (m->bit_size) {
        next.c = offset_c(p.c, m->bit_offset / 8);
        next.bit_offset = m->bit_offset % 8;
        next.bit_size = m->bit_size;
      } else {
        next.c = offset_c(p.c, m->bit_offset / 8);
      }
      p = std::move(next);
      name += "->" + comp.name;
      continue;
    }
    // [index]
    std::string base;
    TypeId elem;
    bool user = p.user;
    if (t->kind == Kind::Array) {
      if (!p.address)
        return fail(comp.loc, "'" + name + "' is an array held in registers: it cannot be "
                                           "indexed");
      base = p.c;
      elem = t->target;
    } else if (t->kind == Kind::Pointer) {
      base = pointer_value(ctx, p);
      elem = t->target;
      user = user || tt.is_user(elem); // `char __user *buf`: buf[i] is user memory
    } else if (p.address && &comp == &cs.front() && start_name.rfind("@cast", 0) == 0) {
      // @cast(p, "T")[i]: element i of an array of T at p, as SystemTap
      // reads it (the cast names the memory at p as a T).
      base = p.c;
      elem = p.type;
    } else {
      return fail(comp.loc, "'" + name + "' is '" + tt.c_name(p.type) +
                                "': only arrays and pointers can be indexed");
    }
    uint64_t size = size_of(tt, elem);
    if (size == 0)
      return fail(comp.loc, "cannot index '" + name + "': its elements ('" + tt.c_name(elem) +
                                "') have no size");
    std::string index = ctx.index_c(comp.index);
    p = Place{elem, true,
              "((unsigned long)(" + base + " + (s64)(" + index + ") * " + std::to_string(size) +
                  "L))",
              user};
    name += "[...]";
  }
  return p;
}

std::string chain_name(const std::string &start, const std::vector<ast::TargetComponent> &cs) {
  std::string s = start;
  for (const ast::TargetComponent &c : cs)
    if (c.kind == ast::TargetComponent::Member)
      s += "->" + c.name;
    else if (c.kind == ast::TargetComponent::Index)
      s += "[...]";
  return s;
}

std::string scalar_c(const WalkContext &ctx, const Place &p) {
  const TypeTable &tt = ctx.types;
  const Type &t = tt[tt.strip(p.type)];
  std::string user = p.user ? "1" : "0";
  bool is_signed = (t.kind == Kind::Int || t.kind == Kind::Enum) && t.is_signed;
  if (p.bit_size)
    return "stp_tv_bits(c, " + p.c + ", " + std::to_string(p.bit_offset) + ", " +
           std::to_string(p.bit_size) + ", " + (is_signed ? "1" : "0") + ", " + user + ", " +
           ctx.where + ")";
  uint64_t size = t.kind == Kind::Pointer && !t.size ? 8 : t.size;
  if (size != 1 && size != 2 && size != 4)
    size = 8;
  std::string cast = std::string(is_signed ? "s" : "u") + std::to_string(size * 8);
  if (t.kind == Kind::Pointer)
    cast = "unsigned long";
  std::string v = p.address ? "stp_tv_read(c, " + p.c + ", " + std::to_string(size) + ", " +
                                  user + ", " + ctx.where + ")"
                            : "(" + p.c + ")";
  return "((s64)(" + cast + ")" + v + ")";
}

std::optional<std::string> register_lvalue(const Place &p) {
  // arch::register_c's spelling: "((unsigned long)(REGS)->NAME)".
  static const std::string head = "((unsigned long)(";
  const std::string &c = p.c;
  if (p.address || c.rfind(head, 0) != 0 || c.size() < head.size() + 4 || c.back() != ')')
    return std::nullopt;
  std::string inner = c.substr(head.size(), c.size() - head.size() - 1); // "REGS)->NAME"
  size_t arrow = inner.rfind(")->");
  if (arrow == std::string::npos)
    return std::nullopt;
  std::string regs = inner.substr(0, arrow), field = inner.substr(arrow + 3);
  if (field.empty() || regs.find_first_of("()") != std::string::npos)
    return std::nullopt;
  for (char ch : field)
    if (!isalnum(static_cast<unsigned char>(ch)) && ch != '_')
      return std::nullopt;
  return "(" + regs + ")->" + field;
}

bool is_char(const TypeTable &tt, TypeId t) {
  const Type &x = tt[tt.strip(t)];
  return x.kind == Kind::Int && x.size == 1;
}

std::optional<Use> classify(const TypeTable &tt, const Place &p, const std::string &name,
                            bool addressof, const std::string &pretty, SourceLoc loc,
                            AccessError &err) {
  auto fail = [&](std::string msg) {
    err = {loc, std::move(msg)};
    return std::nullopt;
  };
  const Type &t = tt[tt.strip(p.type)];
  if (addressof) {
    if (!pretty.empty())
      return fail("'&' and a pretty-printing suffix cannot be combined");
    if (!p.address)
      return fail("cannot take the address of '" + name + "': it is held in a register");
    if (p.bit_size)
      return fail("cannot take the address of '" + name + "': it is a bitfield");
    return Use::Address;
  }
  if (!pretty.empty()) {
    if (t.kind == Kind::Void)
      return fail("'" + name + "' has no type to pretty-print");
    return pretty == "$$" ? Use::PrettyDeep : Use::Pretty;
  }
  if (is_scalar(t))
    return Use::Scalar;
  // An array is its address, a long, as in SystemTap 4.8: char arrays are
  // read with kernel_string($task->comm) (or pretty-printed: $task->comm$).
  if (t.kind == Kind::Array && p.address)
    return Use::Address;
  std::string type = tt.c_name(p.type);
  if (is_aggregate(t))
    return fail("'" + name + "' is '" + type + "': use a member ('" + name +
                "->...'), its address ('&" + name + "') or pretty-print it ('" + name + "$')");
  if (t.kind == Kind::Array)
    return fail("'" + name + "' is an array ('" + type + "') held in registers: index it ('" +
                name + "[0]')");
  if (t.kind == Kind::Float)
    return fail("'" + name + "' is '" + type + "': floating-point values are not supported");
  return fail("'" + name + "' is '" + type + "', which has no value a script can use");
}

namespace {

std::string listing(const TypeTable &tt, TypeId id, unsigned depth) {
  const Type &t = tt[id];
  if (depth > 32)
    return "?";
  switch (t.kind) {
  case Kind::Pointer: {
    const Type &to = tt[t.target];
    if (to.kind == Kind::Func)
      return listing(tt, to.target, depth + 1) + " (*)(...)";
    return listing(tt, t.target, depth + 1) + "*";
  }
  case Kind::Const:
    return listing(tt, t.target, depth + 1) + " const";
  case Kind::Volatile:
    return listing(tt, t.target, depth + 1) + " volatile";
  case Kind::Array:
    return listing(tt, t.target, depth + 1) + "[" + (t.count ? std::to_string(t.count) : "") +
           "]";
  default:
    return tt.c_name(id);
  }
}

} // namespace

std::string listing_name(const TypeTable &tt, TypeId t) { return listing(tt, t, 0); }

} // namespace stap::debuginfo
