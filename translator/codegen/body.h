// Pass 3 for one body (a probe handler or a script function): the C
// function that runs it, with its locals and temporaries in a frame struct.
#pragma once
#include "ast/ast.h"
#include "codegen/emitter.h"
#include "codegen/global_use.h"
#include "debuginfo/target_scope.h"
#include "util/diag.h"

#include <string>

namespace stap::codegen {

// Emits the frame struct and `static void NAME(struct stp_context *c)`;
// its target variables are those of `scope` (nullptr: the point has no
// debuginfo). Returns the frame's size expression ("sizeof(struct NAME_locals)").
std::string emit_probe_handler(Emitter &out, const std::string &name, ast::ProbeDecl &probe,
                               const debuginfo::TargetScope *scope, GlobalUseAnalysis &globals,
                               Diagnostics &diag);

// The prototype of a script function (for forward declarations).
std::string function_prototype(const ast::FunctionDecl &fn);
// Emits the frame struct and the function itself; returns the frame size.
std::string emit_function(Emitter &out, ast::FunctionDecl &fn, Diagnostics &diag);

} // namespace stap::codegen
