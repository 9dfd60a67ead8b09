#include "debuginfo/types.h"

namespace stap::debuginfo {

TypeTable::TypeTable() {
  Type v;
  v.name = "void";
  types_.push_back(std::move(v));
}

TypeId TypeTable::add(Type t) {
  types_.push_back(std::move(t));
  return static_cast<TypeId>(types_.size() - 1);
}

TypeId TypeTable::strip(TypeId id) const {
  // Bounded: a malformed table with a typedef cycle must not hang the translator.
  for (size_t hops = 0; hops < types_.size(); ++hops) {
    const Type &t = types_[id];
    if (t.kind != Kind::Typedef && t.kind != Kind::Const && t.kind != Kind::Volatile &&
        t.kind != Kind::Restrict)
      return id;
    id = t.target;
  }
  return void_type;
}

bool TypeTable::is_user(TypeId id) const {
  for (size_t hops = 0; hops < types_.size(); ++hops) {
    const Type &t = types_[id];
    if (t.user)
      return true;
    if (t.kind != Kind::Typedef && t.kind != Kind::Const && t.kind != Kind::Volatile &&
        t.kind != Kind::Restrict)
      return false;
    id = t.target;
  }
  return false;
}

namespace {

// C declarator syntax: the base name on the left, pointers/arrays around
// the (absent) declarator. `inner` is what has been built so far.
std::string spell(const TypeTable &tt, TypeId id, std::string inner, unsigned depth) {
  if (depth > 64)
    return "?" + inner;
  const Type &t = tt[id];
  auto with = [&](std::string base) { return inner.empty() ? base : base + " " + inner; };
  switch (t.kind) {
  case Kind::Void:
    return with("void");
  case Kind::Typedef:
    if (t.name.empty()) // an attribute (BTF type tag): its target
      return spell(tt, t.target, inner, depth + 1);
    return with(t.name);
  case Kind::Int: case Kind::Bool: case Kind::Float:
    return with(t.name.empty() ? "?" : t.name);
  case Kind::Enum:
    return with("enum " + (t.name.empty() ? std::string("{...}") : t.name));
  case Kind::Struct:
    return with("struct " + (t.name.empty() ? std::string("{...}") : t.name));
  case Kind::Union:
    return with("union " + (t.name.empty() ? std::string("{...}") : t.name));
  case Kind::Const:
    return spell(tt, t.target, inner.empty() ? "const" : "const " + inner, depth + 1);
  case Kind::Volatile:
    return spell(tt, t.target, inner.empty() ? "volatile" : "volatile " + inner, depth + 1);
  case Kind::Restrict:
    return spell(tt, t.target, inner.empty() ? "restrict" : "restrict " + inner, depth + 1);
  case Kind::Pointer:
    return spell(tt, t.target, "*" + inner, depth + 1);
  case Kind::Array: {
    std::string dims = "[" + (t.count ? std::to_string(t.count) : std::string()) + "]";
    bool ptr = !inner.empty() && inner[0] == '*';
    return spell(tt, t.target, (ptr ? "(" + inner + ")" : inner) + dims, depth + 1);
  }
  case Kind::Func: {
    std::string params;
    for (const Member &m : t.members)
      params += (params.empty() ? "" : ", ") + spell(tt, m.type, "", depth + 1);
    if (t.variadic)
      params += params.empty() ? "..." : ", ...";
    if (params.empty())
      params = "void";
    bool ptr = !inner.empty() && inner[0] == '*';
    return spell(tt, t.target, (ptr ? "(" + inner + ")" : inner) + "(" + params + ")", depth + 1);
  }
  }
  return with("?");
}

} // namespace

std::string TypeTable::c_name(TypeId id) const {
  std::string s = spell(*this, id, "", 0);
  return s;
}

std::optional<TypeId> TypeTable::find(std::string_view c_type_name) const {
  Kind want = Kind::Void;
  std::string_view name = c_type_name;
  bool tagged = false;
  for (auto [prefix, kind] : {std::pair<std::string_view, Kind>{"struct ", Kind::Struct},
                              {"union ", Kind::Union}, {"enum ", Kind::Enum}})
    if (name.substr(0, prefix.size()) == prefix) {
      name.remove_prefix(prefix.size());
      want = kind;
      tagged = true;
    }
  std::optional<TypeId> decl;
  for (TypeId id = 1; id < types_.size(); ++id) {
    const Type &t = types_[id];
    if (t.name != name)
      continue;
    bool kind_ok = tagged ? t.kind == want
                          : (t.kind == Kind::Struct || t.kind == Kind::Union || t.kind == Kind::Enum ||
                             t.kind == Kind::Typedef || t.kind == Kind::Int || t.kind == Kind::Bool ||
                             t.kind == Kind::Float);
    if (!kind_ok)
      continue;
    if (!t.declaration)
      return id;
    if (!decl)
      decl = id;
  }
  return decl;
}

std::optional<Member> TypeTable::member(TypeId id, std::string_view name) const {
  const Type &t = types_[strip(id)];
  if (t.kind != Kind::Struct && t.kind != Kind::Union)
    return std::nullopt;
  for (const Member &m : t.members) {
    if (m.name == name)
      return m;
    if (m.name.empty())
      if (auto inner = member(m.type, name)) {
        inner->bit_offset += m.bit_offset;
        return inner;
      }
  }
  return std::nullopt;
}

} // namespace stap::debuginfo
