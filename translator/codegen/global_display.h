// Globals a script writes but never reads are printed when the session
// ends, as SystemTap does (`count=5`, `a["x",1]=3`, `s @count=... @avg=...`).
#pragma once
#include "codegen/module_writer.h"
#include "passes/program.h"

namespace stap::codegen {

// The globals of `program` that are assigned but never read.
std::vector<ast::GlobalDecl *> write_only_globals(Program &program);

// Emits the display handler and its probe descriptor, and points the
// module's `display_probe` at it (nothing when `globals` is empty).
void emit_global_display(ModuleWriter &w, const std::vector<ast::GlobalDecl *> &globals);

} // namespace stap::codegen
