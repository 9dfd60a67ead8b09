// Pass 2b: `@entry(expr)` in function return probes. Each use becomes a
// slot in the kretprobe's per-call data, set by an entry probe that the
// kretprobe runs as its entry handler:
//
//   probe kernel.function("f").return { x = @entry(e) }
// is run as
//   probe kernel.function("f").call { __entry_0 = e }       (entry handler)
//   probe kernel.function("f").return { x = @entry(__entry_0) }
//
// (the rewritten @entry just yields its argument). The entry probe is a
// ResolvedProbe with `entry_part` set, linked from the return probe's
// `entry`; `__entry_0` is a GlobalDecl with `entry_slot` set, listed in
// Program::entry_slots and in no file's globals.
#pragma once
#include "ast/ast.h"
#include "passes/program.h"
#include "util/diag.h"

namespace stap {

void resolve_entry_values(const probes::ResolveEnv &env, Program &program, ast::Arena &arena, Diagnostics &diag);

} // namespace stap
