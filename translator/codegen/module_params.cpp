#include "codegen/module_params.h"

#include "codegen/names.h"

namespace stap::codegen {

void emit_module_params(ModuleWriter &w, const Program &program) {
  Emitter &out = w.out();
  bool any = false;
  for (const ast::GlobalDecl *g : program.globals) {
    if (g->array || (g->type != ast::Type::Long && g->type != ast::Type::String))
      continue;
    bool str = g->type == ast::Type::String;
    // The kernel's parameter types are too narrow (long is 32-bit on
    // i686): the runtime's ops parse into s64 and MAXSTRINGLEN buffers.
    out.line("module_param_cb(" + g->name + ", &" +
             (str ? "stp_param_ops_str" : "stp_param_ops_s64") + ", " + (str ? "" : "&") +
             global_name(*g) + ", 0444);");
    out.line("MODULE_PARM_DESC(" + g->name + ", \"global " + g->name + ":" +
             (str ? "string" : "long") + "\");");
    any = true;
  }
  if (any)
    out.blank();
}

} // namespace stap::codegen
