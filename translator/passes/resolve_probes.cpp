#include "passes/resolve_probes.h"

namespace stap {

void resolve_probes(Program &program, Diagnostics &diag) {
  ast::File &script = *program.files.front();
  for (ast::ProbeDecl *decl : script.probes) {
    for (ast::ProbePoint *point : decl->points) {
      if (point->components.empty())
        continue;
      const auto &root = point->components[0];
      const probes::ProbeFamily *family = probes::find_family(root.functor);
      if (!family) {
        if (!point->optional && !point->sufficient)
          diag.error(root.loc, "no probe point matches '" + probes::probe_point_string(*point) + "'");
        continue;
      }
      family->resolve(*decl, *point, program.probes, diag);
    }
  }
}

} // namespace stap
