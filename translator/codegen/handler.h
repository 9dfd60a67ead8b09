// Pass 3 for one probe body: the C function that runs it.
#pragma once
#include "ast/ast.h"
#include "codegen/emitter.h"
#include "util/diag.h"

#include <string>

namespace stap::codegen {

// Emits `static void NAME(struct stp_context *c) { ... }` for `body`.
// Constructs the translator does not support yet are reported to `diag`.
void emit_probe_handler(Emitter &out, const std::string &name, ast::BlockStmt &body,
                        Diagnostics &diag);

} // namespace stap::codegen
