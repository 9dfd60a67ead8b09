// Scalar globals as module parameters: `stap -G name=value` and
// `staprun MODULE name=value` set them before the session starts.
#pragma once
#include "codegen/module_writer.h"
#include "passes/program.h"

namespace stap::codegen {

// `module_param_cb(name, &stp_param_ops_s64 or _str, &g_name, 0444)` and a
// MODULE_PARM_DESC (which staprun reads to reject unknown names) for each
// numeric or string scalar global.
void emit_module_params(ModuleWriter &w, const Program &program);

} // namespace stap::codegen
