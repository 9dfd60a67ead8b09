// DWARF-level user probes, for the uprobe family (uprobe.cpp) when the
// program or library has DWARF (its own or separate, dwarf/user_debuginfo.h):
//   process("PATH")[.library("LIB")].function("PATTERN")
//     [.call | .return | .inline | .label("L")]
//   process("PATH")[.library("LIB")].statement("PATTERN")[.nearest]
// PATTERN is func[@file[:line|:a-b|:*|+offset]] (dwarf/function_pattern.h).
// Each match is a link-time address (uprobe.cpp turns it into a file
// offset) with the target variables there: $var, $$parms... read from the
// task's registers and user memory, static data relocated by the
// object's load bias at run time.
#pragma once
#include "probes/family.h"
#include "probes/user_target.h"

#include <optional>
#include <string>
#include <vector>

namespace stap::dwarf {
class DebugFile;
}

namespace stap::probes {

// What a point asks of the object's DWARF.
struct UserDwarfRequest {
  std::string pattern; // function(...) or statement(...)'s argument
  SourceLoc loc;       // its location, for messages
  bool statement = false, is_return = false, inlined = false, nearest = false;
  std::optional<std::string> label;
  bool want_scope = false; // the body (or -L) reads target variables
  std::string object;      // the object's target path (TargetScope::user_object)
  // What the DWARF alone can answer (no ELF-symbol fallback).
  bool needs_dwarf() const {
    return statement || inlined || label || pattern.find_first_of("@:+") != std::string::npos;
  }
};

// One address to probe.
struct UserPoint {
  std::string function; // probefunc()
  std::string spelling; // function(...)'s argument as pp() shows it: "f@prog.c:12"
  std::string label;    // .label("PATTERN")'s match
  uint64_t addr = 0;    // link-time address
  std::shared_ptr<const debuginfo::TargetScope> scope; // when want_scope
};

// The DWARF of the object (target path, host path), or nullptr with `why`
// naming the file and what to install.
dwarf::DebugFile *user_dwarf(UserTarget &user, const std::string &target_path,
                             const std::string &host_path, std::string &why);

// The points `req` names in `file`; `compat32`: a 32-bit object on a
// 64-bit target. Returns false when an error was reported; an empty `out`
// is left to the caller (optional points).
bool find_user_points(const ResolveEnv &env, dwarf::DebugFile &file, bool compat32,
                      const UserDwarfRequest &req, std::vector<UserPoint> &out,
                      Diagnostics &diag);

// Scopes for `points` placed by ELF symbol in an object that has DWARF (a
// name only the symbol table has, e.g. libc's `malloc` for DWARF's
// `__libc_malloc`): the DWARF function starting at each address.
void add_symbol_scopes(const ResolveEnv &env, dwarf::DebugFile &file, bool compat32,
                       const UserDwarfRequest &req, std::vector<UserPoint> &points);

// A user program or library a script names by path (@cast's and @var's
// module argument, "/usr/bin/ls"), with its DWARF.
struct UserObjectDwarf {
  dwarf::DebugFile *file = nullptr;
  std::string target_path; // as the target names it (symlinks resolved)
  bool compat32 = false;   // a 32-bit object on a 64-bit target
  uint64_t link_base = 0;  // the link-time address of its file offset 0
};

// The object at `path` (resolved through the session's sysroot) with its
// DWARF, or nullopt with `why` naming the file and what to install.
std::optional<UserObjectDwarf> user_object_dwarf(UserTarget &user, const std::string &path,
                                                 std::string &why);

// Every type the object's DWARF defines, read once (for @cast by name).
std::shared_ptr<const debuginfo::TypeTable> user_object_types(UserTarget &user,
                                                              const UserObjectDwarf &obj);

// C for the run-time address of the object's static data at link-time
// address `addr`, in the current process: moved by the object's load bias
// there (runtime stp_uobject_bias: the probed object's own in one of its
// uprobes, else the VMA map's).
std::string user_static_address(const UserObjectDwarf &obj, uint64_t addr);

// The scope of a point placed without DWARF: no variables, and why.
std::shared_ptr<const debuginfo::TargetScope> no_dwarf_scope(const std::string &object,
                                                             const std::string &why);

} // namespace stap::probes
