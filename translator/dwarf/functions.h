// Functions, their inline instances, labels and source lines in one
// DebugFile's DWARF: what `function("PATTERN")`, `.inline`, `.label("L")`
// and `statement("f@file:line")` resolve against, kernel or user alike.
#pragma once
#include "dwarf/debug_file.h"
#include "dwarf/function_pattern.h"

#include <optional>
#include <string>
#include <vector>

namespace stap::dwarf {

struct FunctionInfo {
  std::string name;
  std::string decl_file; // as the DWARF names it (often absolute)
  int decl_line = 0;
  Dwarf_Off die = 0;     // the concrete DIE: a subprogram, or an inlined_subroutine
  bool inlined = false;  // an inline instance (inside another function)
  bool external = false; // DW_AT_external: visible outside its file
  Dwarf_Addr entry = 0;  // its first instruction
  // Where `.function`/`.call` probes it: after the prologue, as SystemTap
  // does (the line table's second row / prologue_end); an inline instance's
  // entry.
  Dwarf_Addr probe = 0;
};

// The functions of `file` that `p` names (its function and file parts;
// line parts are for source_lines()). Out-of-line functions, and with
// `inlines` the inline instances too; sorted by name, then address.
std::vector<FunctionInfo> find_functions(DebugFile &file, const FunctionPattern &p, bool out_of_line,
                                         bool inlines);

struct SourceLine {
  std::string file;
  int line = 0;
  Dwarf_Addr addr = 0;
};

// The first address of each source line in [first, last] that has code in
// function `fn` (a statement start, in fn's own file). With `nearest`, a
// line without code moves to the next line that has some.
std::vector<SourceLine> source_lines(DebugFile &file, const FunctionInfo &fn, int64_t first,
                                     int64_t last, bool nearest);

struct LabelInfo {
  std::string name;
  std::string decl_file;
  int decl_line = 0;
  Dwarf_Addr addr = 0;
};

// The labels of `fn` whose names match `pattern` (lang/glob.h).
std::vector<LabelInfo> find_labels(DebugFile &file, const FunctionInfo &fn, const std::string &pattern);

// A function `fn` calls (`.callee("PATTERN")`, `.callees`): from the
// DWARF call sites of fn (GCC 4.7+ emits them with -O1 and up), an
// out-of-line function of the same file with the return addresses of
// fn's calls to it.
struct Callee {
  FunctionInfo fn;
  std::vector<Dwarf_Addr> return_pcs; // where fn's calls return to
  bool tail_calls = false;            // fn also jumps to it (a tail call: no return into fn)
};

// The callees of `fn` whose names match `pattern` (fnmatch), sorted by
// name. Calls through pointers and to functions of other objects (a
// module calling the kernel) have no DWARF callee here and are left out,
// and so are inline instances, as in SystemTap 4.8.
std::vector<Callee> find_callees(DebugFile &file, const FunctionInfo &fn, const std::string &pattern);

// How far the caller's return address is above the stack pointer while
// the code at `pc` runs (its CFI rule CFA = sp + N, less the return
// address's own slot plus it: N - ptr + ptr = N); nullopt when the CFI
// does not put the frame at a fixed distance from the stack pointer.
std::optional<int64_t> frame_size_at(DebugFile &file, Dwarf_Addr pc, int sp_dwarf_regno);

// The DIE of `fn` (for scopes).
bool function_die(DebugFile &file, const FunctionInfo &fn, Dwarf_Die &out);

} // namespace stap::dwarf
