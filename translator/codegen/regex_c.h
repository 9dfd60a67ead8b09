// A compiled regular expression (lang/regex.h) as C: the static tables of
// runtime/regex_vm.h's Pike VM.
#pragma once
#include "lang/regex.h"

#include <string>

namespace stap::codegen {

// A C expression (a GCC statement expression holding static const tables)
// whose value is `const struct stp_rx_prog *` for `p`.
std::string regex_program_c(const lang::RegexProgram &p);

} // namespace stap::codegen
