// What target variables (`$count`, `$file->f_path`, `$$parms`, `$return`)
// mean at one resolved probe point: each variable's type and where its
// value is when the probe fires. A probe family fills one TargetScope per
// ResolvedProbe from whichever debuginfo answers (BTF, DWARF, a tracepoint's
// prototype); passes/target_vars.cpp checks uses against it and codegen
// compiles `->` chains, indexing, `&` and pretty-printing from it. Wildcard
// probes get one scope per matched point, because the same `$count` lives
// in different registers in different functions.
#pragma once
#include "debuginfo/types.h"

#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace stap::debuginfo {

// Where a variable's value is, as C in the probe handler's context (`c` is
// the probe context, `c->regs` the probed registers).
struct VarLocation {
  enum Kind : uint8_t {
    Value,   // `c_expr` yields the value itself (a register, a computed DWARF value)
    Address, // `c_expr` yields the address of the value in target memory
    Unavailable, // optimized out here: using it is an error (or 0 with --skip-badvars)
  } kind = Unavailable;
  std::string c_expr;
  bool user = false; // Address is in user memory (uprobes), else kernel memory
  // Unavailable: why, for the error ("optimized out" when empty).
  std::string why_unavailable;
};

struct TargetVar {
  std::string name;          // without the '$': "count"
  TypeId type = void_type;
  VarLocation loc;
  bool parameter = false;    // a function parameter (in $$parms), else a local
  bool global = false;       // a variable of the compilation unit (not in $$vars)
};

struct TargetScope {
  std::shared_ptr<const TypeTable> types;
  std::vector<TargetVar> vars;          // parameters first, in declaration order
  std::optional<TargetVar> return_value; // `$return` at a .return probe
  std::string source;                   // what answered, for -v and errors: "BTF", "DWARF"
  // A user probe's: the program or library probed (its target path), whose
  // DWARF @cast and @var read by default, as in SystemTap; "" for the kernel.
  std::string user_object;
  // Why there are no variables, when there are none (e.g. "no debuginfo for
  // kernel 6.1.0-50-686: install linux-image-6.1.0-50-686-dbg"): the error
  // a use of `$var` reports.
  std::string missing_reason;

  const TargetVar *find(std::string_view name) const {
    for (const TargetVar &v : vars)
      if (v.name == name)
        return &v;
    return nullptr;
  }
};

} // namespace stap::debuginfo
