// Pass 2 under --privilege=stapusr (or --unprivileged), as SystemTap 4.8
// checks it: a script an unprivileged user may run can only use the probe
// points that see nothing of the kernel or of other users (begin, end,
// error, never, the interval timers, and process.* in the user's own
// processes), and only the functions whose embedded C says so with
// `/* unprivileged */` or `/* myproc-unprivileged */` (functions written in
// the script language are safe by construction). Embedded C in the script
// itself needs -g, which stapusr excludes (the parser's check).
#pragma once
#include "passes/program.h"
#include "util/diag.h"

#include <optional>
#include <string>
#include <string_view>

namespace stap {

// SystemTap's three levels; stapdev (the default) is root's.
enum class Privilege { StapDev, StapSys, StapUsr };

// "stapusr" -> StapUsr...; nothing for another word.
std::optional<Privilege> parse_privilege(std::string_view name);
std::string_view privilege_name(Privilege p);

// Whether a probe point (in canonical form, `ResolvedProbe::pp`) is one an
// unprivileged user may use.
bool unprivileged_probe_point(std::string_view pp);

// Whether `fn` (embedded C) is marked as safe for unprivileged users.
bool unprivileged_function(const ast::FunctionDecl &fn);

// The errors, with 4.8's messages: "probe point is not allowed for
// --privilege=stapusr" and "function may not be used when
// --privilege=stapusr is specified".
void check_privilege(Program &program, Privilege privilege, Diagnostics &diag);

} // namespace stap
