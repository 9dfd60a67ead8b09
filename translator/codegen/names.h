// C names the generated code uses for script things, in one place.
#pragma once
#include "ast/ast.h"

#include <string>

namespace stap::codegen {

inline std::string global_name(const ast::GlobalDecl &g) {
  return g.entry_slot ? "STP_ENTRY_SLOTS(c)->" + g.name : "g_" + g.name;
}
inline std::string global_lock_name(const ast::GlobalDecl &g) { return "g_" + g.name + "_lock"; }
inline std::string global_key_struct(const ast::GlobalDecl &g) {
  return "struct g_" + g.name + "_key";
}
// Statistics: the shape (`struct stp_stat_desc`) of global g's aggregates.
inline std::string stat_desc_name(const ast::GlobalDecl &g) { return "g_" + g.name + "_desc"; }
inline std::string local_name(const ast::VarDecl &v) { return "l->v_" + v.name; }
inline std::string function_name(const ast::FunctionDecl &f) {
  return "f_" + f.name + "_" + std::to_string(f.params.size()) +
         (f.overload_index ? "_o" + std::to_string(f.overload_index) : "");
}
inline std::string frame_struct(const std::string &body_name) { return body_name + "_locals"; }

// A C declarator for a script value of type `t` named `name`.
inline std::string c_declare(ast::Type t, const std::string &name) {
  if (t == ast::Type::Stats)
    return "struct stp_stat " + name;
  return t == ast::Type::String ? "char " + name + "[MAXSTRINGLEN]" : "s64 " + name;
}

} // namespace stap::codegen
