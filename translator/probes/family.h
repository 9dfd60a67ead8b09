// Probe families: each kind of probe point (begin/end, timer, kprobe, ...)
// is one ProbeFamily in its own file, listed once in registry.cpp.
#pragma once
#include "ast/ast.h"
#include "arch/arch.h"
#include "debuginfo/target_scope.h"
#include "driver/target.h"
#include "util/diag.h"

#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace stap::codegen {
class ModuleWriter;
}
namespace stap::dwarf {
class KernelDebuginfo;
}
namespace stap::tracequery {
class Catalogs;
}
namespace stap::debuginfo {
class KernelDebuginfo;
}

namespace stap::probes {

class ProbeFamily;

// What families resolve against, passed down from the driver: the target
// kernel (release, arch, build tree, config) and its arch table. Debuginfo
// loaded for the target (kernel BTF, DWARF) hangs here too, loaded on first
// use and kept for the session, never in statics.
struct UserTarget; // probes/user_target.h
struct ResolveEnv {
  const Target &target;
  const arch::Arch &arch;
  // The DWARF of the kernel and its modules (dwarf/kernel_debuginfo.h),
  // when the driver looked for it.
  dwarf::KernelDebuginfo *kernel_dwarf = nullptr;
  // The target kernel's types and prototypes (BTF today), loaded on first
  // use; nullptr in tools that resolve without a driver.
  debuginfo::KernelDebuginfo *kernel_debuginfo = nullptr;
  // `stap -L`: find every point's target variables, even for bodies that
  // use none.
  bool list_vars = false;
  // User-space probes: the target's files, the objects probed.
  UserTarget *user = nullptr;
  bool guru = false; // -g: points that need guru mode (absolute addresses)
  // --skip-badvars: a $var that does not resolve reads as 0, with a warning.
  bool skip_badvars = false;
  // The kernel's tracepoints and their prototypes (tracequery/catalog.h),
  // read on first use; nullptr where no tracepoint is resolved.
  tracequery::Catalogs *tracepoints = nullptr;
};

// One concrete probe: a probe body bound to a probe point that a family
// accepted. A probe with several points yields several ResolvedProbes.
struct ResolvedProbe {
  ast::ProbeDecl *decl = nullptr;
  ast::ProbePoint *point = nullptr;
  const ProbeFamily *family = nullptr;
  std::string pp;          // the point in canonical form, e.g. "begin(-5)": pp()
  std::string pn;          // the script-level name (alias name, wildcards expanded): pn()
  std::string function;    // the probed kernel function, if any: probefunc()
  // How the point was reached, as -p2 shows it: each alias expanded
  // (innermost first), then the user's probe: "<- tick = timer.ms(100) <- tick".
  // Set by pass 2 unless the family set it (kernel.data: 4.8 rebuilds the
  // point and shows only it).
  std::string derivation;
  bool is_return = false;  // a function return probe: $return is available
  // A return probe with @entry values: the probe that computes them when
  // the function is entered (runs as the kretprobe's entry handler).
  const ResolvedProbe *entry = nullptr;
  bool entry_part = false; // this probe runs only as another's `entry`
  // The point does its work without the body, which never runs (a perf
  // counter, read with @perf): kept when the body is empty.
  bool acts_without_body = false;
  int64_t priority = 0;    // begin/end/error ordering
  std::string handler;     // C name of the handler function (set by codegen)
  // Family-specific C initializer fields worked out at resolution, e.g.
  // `.symbol = "vfs_read", .is_return = true` (the family's to define).
  std::string c_fields;
  // The target variables at this point and where they live (from BTF or
  // DWARF), when the family found debuginfo for it; per point, because a
  // wildcard's matches keep the same `$var` in different places.
  std::shared_ptr<const debuginfo::TargetScope> scope;
};

// One component of a point shape: its keyword and whether it takes an
// argument (`function("f")`: true; `return`: false).
struct ShapeComponent {
  std::string functor;
  bool has_arg = false;
};
// A complete point a family accepts, e.g. kprobe.function(_).return: what
// wildcards in keywords (`kprobe.function("f").*`, `timer.**`) expand to.
using PointShape = std::vector<ShapeComponent>;

// A target variable a probe point provides (`$return`, later DWARF's
// `$var`s): its name with the '$' and its script type.
struct ContextVar {
  std::string name;
  ast::Type type = ast::Type::Long;
  // The C expression that reads it in a handler (`c` is the context), the
  // same at every point of the family; "" for the codegen's own ($return
  // of kernel function probes).
  std::string c_expr = {};
};

class ProbeFamily {
public:
  virtual ~ProbeFamily() = default;
  // The leading component this family answers to ("begin", "timer", ...).
  virtual std::vector<std::string_view> roots() const = 0;
  // Every complete point the family accepts, arguments left open. By
  // default each root alone (`never`); families with more override it.
  virtual std::vector<PointShape> shapes() const;
  // Checks the rest of the point; appends what it resolves to, or reports
  // why it does not match and returns false.
  virtual bool resolve(const ResolveEnv &env, ast::ProbeDecl &decl, ast::ProbePoint &point,
                       std::vector<ResolvedProbe> &out, Diagnostics &diag) const = 0;
  // The target variables `probe` (one of this family's) provides. The
  // one place pass 2 asks "does $x exist here" (@defined, errors, -L).
  virtual std::vector<ContextVar> context_vars(const ResolvedProbe &) const { return {}; }
  // Whether the family's return probes can run an entry part that saves
  // @entry values (passes/entry_values.cpp). kretprobes can; user return
  // probes cannot yet.
  virtual bool has_entry_values() const { return false; }
  // Whether a return probe's target variables (all but $return) are
  // snapshots taken at the function's entry, as SystemTap documents them
  // (stapprobes: "snapshots taken at the time of function entry"): each
  // use is read as @entry(use). Needs has_entry_values().
  virtual bool snapshots_return_vars() const { return false; }
  // What probe_type() returns in `probe` (one of this family's): the
  // name SystemTap 4.8 gives the low-level mechanism of the same point
  // ("kprobe", "hrtimer", "begin_end"...).
  virtual std::string_view probe_type(const ResolvedProbe &) const { return ""; }
  // Emits the C that describes or registers `probes` (all of this family).
  virtual void emit(codegen::ModuleWriter &w,
                    const std::vector<const ResolvedProbe *> &probes) const = 0;
};

// A ResolvedProbe of `family` for `point` of `decl`, its pp filled in.
ResolvedProbe make_resolved(ast::ProbeDecl &decl, ast::ProbePoint &point,
                            const ProbeFamily *family);

// Target variable `name` ("$return") of `probe`, or nothing
// when the probe point does not provide it.
std::optional<ContextVar> find_context_var(const ResolvedProbe &probe, std::string_view name);

// The registry: every family, in one table.
const std::vector<const ProbeFamily *> &all_families();
const ProbeFamily *find_family(std::string_view root);

// "kernel.function(\"f\").return" from a point's components.
std::string probe_point_string(const ast::ProbePoint &p);
// 0x1030: an address as pp() shows it (kernel.data, kprobe.statement,
// process(...).statement).
std::string hex_addr(uint64_t v);
// One component: `function("f")`, `ms(100)`, `return`.
std::string component_string(const ast::ProbePointComponent &c);

// Helpers for resolving components.
const ast::NumberLit *number_arg(const ast::ProbePointComponent &c);
const ast::StringLit *string_arg(const ast::ProbePointComponent &c);
// A copy of `point` with component `index`'s string argument set to
// `value` (a wildcard's match, a canonical path): what pp() and -l show.
// Points are arena nodes elsewhere; these live as long as the program.
ast::ProbePoint *with_string_arg(const ast::ProbePoint &point, size_t index,
                                 const std::string &value);
// Keeps a point made by a family for as long as the program.
ast::ProbePoint *keep_point(std::unique_ptr<ast::ProbePoint> point);

} // namespace stap::probes
