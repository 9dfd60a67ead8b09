// Walking a target-variable chain (`$file->f_path->dentry`, `$argv[1]`,
// `@cast(p, "struct file")->f_mode`) over a TypeTable: one walk that pass 2
// uses to check a chain and type it, @defined to answer, and codegen to
// compile it to C. Each step keeps where the walk is as C: a value (a
// register, a computed value) or the address of an object in target
// memory; dereferencing a pointer on the way is a nofault read
// (runtime/stp_target.h), so a bad pointer is a run-time error.
#pragma once
#include "ast/ast.h"
#include "debuginfo/target_scope.h"
#include "debuginfo/types.h"

#include <functional>
#include <optional>
#include <string>
#include <vector>

namespace stap::debuginfo {

// Where a walk is: the C of a value of `type`, or of the address of an
// object of `type` (in user memory when `user`); for a bitfield, its bits
// at that address.
struct Place {
  TypeId type = void_type;
  bool address = false;
  std::string c;
  bool user = false;
  uint32_t bit_offset = 0, bit_size = 0; // bit_size 0: not a bitfield
};

struct AccessError {
  SourceLoc loc;
  std::string message;
};

// What the walk needs from its user: C for an index expression (pass 2
// passes a placeholder), and `where` as a C string literal for fault
// messages ("'$file' at t.stp:3:9").
struct WalkContext {
  const TypeTable &types;
  std::function<std::string(ast::Expr *)> index_c;
  std::string where;
};

// What a `$name` denotes in a scope: one variable, or the list `$$vars`,
// `$$parms`, `$$locals`, `$$return` stand for (`$$return`: the return
// value, or nothing for a void function).
struct TargetRef {
  const TargetVar *var = nullptr;
  bool is_list = false;
  std::vector<const TargetVar *> list;
};
// nullopt with `why` when `name` ("$count", "$$parms") is not there.
std::optional<TargetRef> find_target(const TargetScope &scope, const std::string &name,
                                     const std::string &pp, std::string &why);

// The place of a variable from its location; nullopt when unavailable.
std::optional<Place> start_place(const TargetVar &v);

// Follows the Member and Index components of `cs` from `from` (a Pretty
// component, which can only be last, is left to the caller). `name` is the
// chain so far as the user wrote it ("$file"), for messages.
std::optional<Place> walk(const WalkContext &ctx, Place from, const std::string &name,
                          const std::vector<ast::TargetComponent> &cs, AccessError &err);

// "$file->f_path[...]": a chain as messages name it.
std::string chain_name(const std::string &start, const std::vector<ast::TargetComponent> &cs);

// C reading the scalar at `p` (an integer, enum, bool or pointer) as an
// s64, sign- or zero-extended from its size.
std::string scalar_c(const WalkContext &ctx, const Place &p);

// What a finished chain gives the script, or why it gives nothing:
// Long for scalars and addresses (`&`), String for char arrays and for
// pretty printing (`$`, `$$`). Structs, unions and other arrays are
// errors, with a hint.
enum class Use : uint8_t { Scalar, Address, Pretty, PrettyDeep };
std::optional<Use> classify(const TypeTable &tt, const Place &p, const std::string &name,
                            bool addressof, const std::string &pretty, SourceLoc loc,
                            AccessError &err);

// Guru mode's writes: the C lvalue of the register that holds `p`
// whole (a parameter in `(c->regs)->di`), or nullopt when `p` is a value
// computed from one or more registers and cannot be assigned.
std::optional<std::string> register_lvalue(const Place &p);

// Is `t` (typedefs stripped) a char-sized integer (char arrays and
// `char *` are strings to pretty printing)?
bool is_char(const TypeTable &tt, TypeId t);

// "struct file*": a type as `stap -L` and SystemTap's messages spell it.
std::string listing_name(const TypeTable &tt, TypeId t);

} // namespace stap::debuginfo
