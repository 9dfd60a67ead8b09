// The target variables at one address of one function, from DWARF: its
// parameters and the locals visible there, with their types (TypeReader)
// and locations compiled to C (location.h); `$return` for return probes.
#pragma once
#include "arch/arch.h"
#include "debuginfo/target_scope.h"
#include "dwarf/functions.h"
#include "dwarf/location.h"

#include <memory>

namespace stap::dwarf {

struct ScopeOptions {
  explicit ScopeOptions(const arch::Arch &a) : arch(a) {}
  const arch::Arch &arch;
  bool user = false;   // a user program: addresses are user memory
  bool with_return = false; // a return probe: fill return_value
  // Also the variables the function's compilation unit defines at its top
  // level (globals and file statics it defines), after its own, which
  // hide them, as SystemTap finds `$name` through the CU's scope.
  bool cu_globals = false;
  // DW_OP_addr -> run-time C (see LocationContext::address); unset: static
  // data is unavailable, with the reason.
  std::function<std::optional<std::string>(uint64_t addr, std::string &why)> address;
};

// The scope of function `fn` at DWARF address `pc` (inside fn). A variable
// that cannot be read there is kept, Unavailable, with the reason in its
// c_expr (for the error a use reports).
std::shared_ptr<debuginfo::TargetScope> scope_at(DebugFile &file, const FunctionInfo &fn,
                                                 Dwarf_Addr pc, const ScopeOptions &opts);

// The location of a variable DIE (DW_AT_location / DW_AT_const_value) at `pc`.
debuginfo::VarLocation variable_location(DebugFile &file, Dwarf_Die *var, Dwarf_Die *subprogram,
                                         Dwarf_Addr pc, const ScopeOptions &opts, std::string &why);

} // namespace stap::dwarf
