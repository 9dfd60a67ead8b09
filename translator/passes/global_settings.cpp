#include "passes/global_settings.h"

#include <cerrno>
#include <cstdlib>

namespace stap {
namespace {

// A number as the kernel's kstrtos64(val, 0) reads it: decimal, 0x hex or
// 0 octal, with an optional sign.
bool is_number(const std::string &v) {
  if (v.empty() || v.find_first_of(" \t\n") != std::string::npos)
    return false;
  errno = 0;
  char *end = nullptr;
  if (v[0] == '-')
    (void)std::strtoll(v.c_str(), &end, 0);
  else
    (void)std::strtoull(v.c_str() + (v[0] == '+'), &end, 0);
  return errno == 0 && end && *end == '\0';
}

} // namespace

void check_global_settings(const Program &program, const std::vector<std::string> &settings,
                           Diagnostics &diag) {
  for (const std::string &s : settings) {
    std::string name = s.substr(0, s.find('=')), value = s.substr(s.find('=') + 1);
    const ast::GlobalDecl *found = nullptr;
    for (const ast::GlobalDecl *g : program.globals)
      if (g->name == name)
        found = g;
    if (!found) {
      diag.error("-G " + s + ": the script has no global '" + name + "' in use");
      continue;
    }
    if (found->array || (found->type != ast::Type::Long && found->type != ast::Type::String)) {
      diag.error("-G " + s + ": '" + name + "' is not a numeric or string scalar");
      continue;
    }
    if (found->type == ast::Type::Long && !is_number(value))
      diag.error("-G " + s + ": '" + name + "' is a number, and '" + value + "' is not one");
    if (found->type == ast::Type::String && value.find('"') != std::string::npos)
      diag.error("-G " + s + ": a module parameter cannot hold '\"'");
  }
}

} // namespace stap
