// The C types of the target's data, whichever debuginfo described them
// (kernel BTF, DWARF of vmlinux, a module or a user binary, a tracepoint
// query module): one small graph that target variables, `->` chains,
// @cast and -L listings work from. Readers (debuginfo/btf_*.cpp,
// dwarf/*.cpp) translate their format into it; nothing downstream looks at
// BTF or DWARF again.
#pragma once
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace stap::debuginfo {

// An index into a TypeTable. 0 is `void`.
using TypeId = uint32_t;
constexpr TypeId void_type = 0;

enum class Kind : uint8_t {
  Void, Int, Bool, Float, Enum,
  Pointer, Array, Struct, Union, Func, // Func: a prototype (members = parameters)
  Typedef, Const, Volatile,            // name/qualifier over `target`
  Restrict,                            // qualifier over `target`
  // A nameless Typedef is an attribute over `target` (BTF's type tags:
  // __user, __rcu): spelled and stripped as its target.
};

struct Member {
  std::string name;        // empty for an anonymous struct/union member or unnamed parameter
  TypeId type = void_type;
  uint64_t bit_offset = 0; // from the start of the enclosing struct/union
  uint32_t bit_size = 0;   // a bitfield's width; 0 when not a bitfield
};

struct Type {
  Kind kind = Kind::Void;
  std::string name;        // "int", "file" (without the struct keyword), typedef name; "" if anonymous
  uint64_t size = 0;       // bytes (0 for void, functions, incomplete types)
  bool is_signed = false;  // Int, Enum
  TypeId target = void_type; // Pointer/Array element/Typedef/Const/Volatile; Func: return type
  uint64_t count = 0;      // Array: elements (0: unknown or flexible)
  bool declaration = false; // Struct/Union: a forward declaration, members unknown
  bool variadic = false;   // Func
  bool user = false;       // a nameless Typedef for BTF's `__user` tag: user memory
  std::vector<Member> members; // Struct/Union fields; Func parameters
  std::vector<std::pair<std::string, int64_t>> enumerators; // Enum
};

class TypeTable {
public:
  TypeTable();                                  // holds `void` as type 0
  TypeId add(Type t);                           // appends; its id
  const Type &operator[](TypeId id) const { return types_[id]; }
  Type &at(TypeId id) { return types_[id]; }    // for readers filling in forward references
  size_t size() const { return types_.size(); }
  // `id` without typedefs and const/volatile/restrict.
  TypeId strip(TypeId id) const;
  // Whether `id` is tagged `__user` (through its typedefs and qualifiers):
  // what a pointer to it points at is user memory.
  bool is_user(TypeId id) const;
  // The type as C spells it: "struct file *", "const char *", "int [16]".
  std::string c_name(TypeId id) const;
  // A named struct/union/enum/typedef/base type: "struct file", "file",
  // "union foo", "size_t", "unsigned int". The complete definition is
  // preferred over a declaration.
  std::optional<TypeId> find(std::string_view c_type_name) const;
  // The member `name` of struct/union `id` (looking through anonymous
  // members), its offset added up from the start of `id`.
  std::optional<Member> member(TypeId id, std::string_view name) const;

private:
  std::vector<Type> types_;
};

} // namespace stap::debuginfo
