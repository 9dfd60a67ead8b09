// The tracepoint query objects of a kernel release: SystemTap's "tracequery"
// idea. The kernel headers declare every tracepoint with TRACE_EVENT /
// DEFINE_EVENT / DECLARE_TRACE in include/trace/events/*.h and the arch's
// asm/trace/*.h. For each such header, a small C file includes it with
// DECLARE_TRACE redefined to define one empty function per tracepoint,
//
//   void stp_tq__SYSTEM__stpname__NAME(TP_PROTO arguments) {}
//
// and Kbuild compiles it with -g against the target's headers. The object's
// symbol table then lists the tracepoints with their TRACE_SYSTEM, and its
// DWARF gives each one's arguments with their types (struct layouts
// included) on every arch, BTF or not. Headers that do not compile on their
// own are skipped. Each header's object is built once per release, when
// first needed, and cached under $SYSTEMTAP_DIR/tracequery/RELEASE-ARCH/
// (STEM.o, or STEM.failed with the compiler's output): all of them take
// about 12 MB and a few minutes of compiling on a loaded machine, one
// header a few seconds.
#pragma once
#include "driver/target.h"

#include <string>
#include <vector>

namespace stap::tracequery {

// The prefix and separator of the query functions' names.
constexpr const char *function_prefix = "stp_tq__";
constexpr const char *name_separator = "__stpname__";

// The query objects' paths for `target`, built on first use: with a
// `system` ("sched"), only those of the headers named after it when there
// are such, else all. Empty with `error` set when the headers cannot be
// found or none compiled. `verbose` says when headers are compiled.
std::vector<std::string> query_objects(const Target &target, const std::string &system,
                                       bool verbose, std::string &error);

// $SYSTEMTAP_DIR/tracequery
std::string query_cache_dir();

// The C source of the query file for one header ("trace/events/sched.h").
std::string query_source(const std::string &header);

} // namespace stap::tracequery
