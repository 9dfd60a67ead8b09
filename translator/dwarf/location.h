// DWARF location expressions -> C. A variable's DW_AT_location at one
// address is a small stack program (DW_OP_*); this compiles it, once, at
// translation time into a C expression over the probe handler's context
// (`c->regs` for registers), so the module does no DWARF work when the
// probe fires. Registers come from the per-arch table (arch/arch.h).
#pragma once
#include "arch/arch.h"
#include "debuginfo/target_scope.h"

#include <elfutils/libdw.h>

#include <functional>
#include <optional>
#include <string>

namespace stap::dwarf {

struct LocationContext {
  explicit LocationContext(const arch::Arch &a) : arch(a) {}
  const arch::Arch &arch;
  std::string regs = "c->regs"; // C for the probed `struct pt_regs *`
  bool user = false;            // addresses are user memory (uprobes)
  // C for the frame base (DW_OP_fbreg) and the canonical frame address
  // (DW_OP_call_frame_cfa) at the probe's address; nullopt when unknown,
  // with the reason in the string.
  std::function<std::optional<std::string>(std::string &why)> frame_base;
  std::function<std::optional<std::string>(std::string &why)> cfa;
  // C for the run-time address of DWARF address `addr` (DW_OP_addr);
  // nullopt when it cannot be relocated, with the reason.
  std::function<std::optional<std::string>(uint64_t addr, std::string &why)> address;
  // The probe is at the first instruction of the function whose frame
  // this is: a value at entry (DW_OP_entry_value) is the value now.
  bool at_entry = false;
  // C for the value the callers pass for the parameter whose DIE is at
  // CU offset `die` (DW_OP_GNU_parameter_ref); nullopt, with the reason,
  // when the call sites do not agree on one.
  std::function<std::optional<std::string>(uint64_t die, std::string &why)> parameter_ref;
  // A C string literal naming what is read, for the fault message of a
  // memory read inside the expression (DW_OP_deref): "\"'$x'\"".
  std::string where = "\"a DWARF location\"";
};

// The location `ops[0..n)` describes, as C. An expression this cannot
// compile (or an empty one: optimized out) gives Unavailable, with the
// reason in `why`.
debuginfo::VarLocation compile_location(const Dwarf_Op *ops, size_t n, const LocationContext &ctx,
                                        std::string &why);

} // namespace stap::dwarf
