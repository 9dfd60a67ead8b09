#include "remote/kernel_log.h"

#include "remote/vm.h"

#include <regex>

namespace stap::remote {
namespace {

std::string without_cr(const std::string &s) {
  std::string out;
  out.reserve(s.size());
  for (char c : s)
    if (c != '\r')
      out += c;
  return out;
}

} // namespace

bool has_kernel_problem(const std::string &kernel_log) {
  // The headlines the kernel prints for a WARN (WARNING: CPU: ...), a BUG
  // or oops, a panic, a lockup or stall, and the sanitizers; "Call Trace"
  // catches any other report that dumps a stack. Lockdep's reports are
  // WARNINGs ("WARNING: possible circular locking dependency detected"),
  // KASAN's and KFENCE's "BUG: KASAN: ..."; SLUB's debug checks
  // (slub_debug=FZPU, which the stress tests boot with) print "BUG
  // CACHE (Tainted: ...): Redzone overwritten" and the like, and the list
  // and stack checks their own lines.
  static const std::regex problem(
      R"(WARNING: |BUG: |kernel BUG at|\bOops|general protection fault|Kernel panic|)"
      R"(Call Trace|UBSAN: |KASAN: |KFENCE: |soft lockup|hard LOCKUP|self-detected stall|)"
      R"(rcu: INFO: |INFO: task .* blocked for more than|INFO: possible |)"
      R"(BUG [^ ]+ \(.*\): |Redzone overwritten|Poison overwritten|Object padding overwritten|)"
      R"(list_(add|del) corruption|stack-protector: |Kernel stack is corrupted|)"
      R"(scheduling while atomic)");
  return std::regex_search(kernel_log, problem);
}

std::string console_since_job(const std::string &console, const std::string &job_dir,
                              size_t max_bytes) {
  std::string text = without_cr(console);
  std::string marker = "STAPVM: job " + job_dir + " start";
  size_t at = text.rfind(marker);
  if (at == std::string::npos)
    return console_tail(console);
  std::string since = text.substr(at);
  if (since.size() > max_bytes)
    since = since.substr(since.size() - max_bytes);
  return since;
}

std::string console_tail(const std::string &console, size_t lines) {
  std::string text = without_cr(console);
  size_t pos = text.size();
  if (pos && text[pos - 1] == '\n')
    --pos;
  for (size_t n = 0; n < lines && pos != std::string::npos && pos > 0; ++n)
    pos = text.rfind('\n', pos - 1);
  return pos == std::string::npos || pos == 0 ? text : text.substr(pos + 1);
}

} // namespace stap::remote
