// The target arch's registers and calling conventions (translator/arch)
// as C macros for the module, which runtime/stp_fetch.h turns into the
// tables register(), *_arg(), @kregister() and friends read at run time.
#pragma once
#include "arch/arch.h"
#include "codegen/emitter.h"

namespace stap::codegen {

// Emits the macros and `#include "stp_fetch.h"`.
void emit_arch_tables(Emitter &out, const arch::Arch &a);

} // namespace stap::codegen
