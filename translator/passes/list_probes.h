// stap -l / -L: the probe points a pattern resolved to, one a line.
#pragma once
#include "passes/program.h"

#include <iosfwd>

namespace stap {

// Prints each resolved probe's script-level name (pn), sorted and unique;
// with `vars`, followed by its context variables: the locals its alias
// bodies set, and $return for return probes. True iff anything matched.
bool list_probes(const Program &program, bool vars, std::ostream &out);

} // namespace stap
