// What to do when the kernel refuses the module: init_module's errors
// explained for the person at the keyboard, with the man page to read.
#pragma once
#include <string>

namespace staprun {

// A second line after "cannot load module 'M': STRERROR" for errno `err`,
// or "" when strerror says it all. `lockdown` is the text of
// /sys/kernel/security/lockdown ("none [integrity] confidentiality"), ""
// when unknown; `is_root` whether we run as root.
std::string load_error_advice(int err, const std::string &lockdown, bool is_root);

// The same, reading the lockdown state and our uid.
std::string load_error_advice(int err);

} // namespace staprun
