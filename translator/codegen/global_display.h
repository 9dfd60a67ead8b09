// Globals a script writes but never reads are printed when the session
// ends, as SystemTap does (`count=5`, `a["x",1]=3`, `s @count=... @avg=...`):
// passes/displayed_globals.h says which.
#pragma once
#include "codegen/module_writer.h"
#include "passes/program.h"

namespace stap::codegen {

// Emits the display handler and its probe descriptor, and points the
// module's `display_probe` at it (nothing when `globals` is empty).
void emit_global_display(ModuleWriter &w, const std::vector<ast::GlobalDecl *> &globals);

} // namespace stap::codegen
