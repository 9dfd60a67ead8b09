// What pass 2 hands to pass 3: the parsed files and the resolved probes.
#pragma once
#include "ast/ast.h"
#include "probes/family.h"

#include <map>
#include <memory>
#include <vector>

namespace stap {

struct Program {
  std::vector<std::unique_ptr<ast::File>> files; // files[0]: the user script, then tapsets
  std::vector<probes::ResolvedProbe> probes;
  // What symbol resolution found in use (unused tapset code is left out):
  // functions reachable from the probes, and the globals they and the
  // user script use, in declaration order.
  std::vector<ast::FunctionDecl *> functions;
  std::vector<ast::GlobalDecl *> globals;
  // The same globals in the order symbol resolution first met them (the
  // script's probes, then functions as calls reach them): SystemTap lists
  // them that way at -p2 (passes/print_program.cpp).
  std::vector<ast::GlobalDecl *> globals_by_first_use;
  // The @entry values of return probes (passes/entry_values.cpp): one
  // `struct stp_entry_slots` member each, kept per kretprobe instance.
  std::vector<ast::GlobalDecl *> entry_slots;
  // The target's architecture (set at the start of pass 2): its registers
  // and calling conventions go into the module (codegen/arch_c.cpp).
  const arch::Arch *arch = nullptr;
};

// Calls f(VarDecl *) for every local of the program that runs: each used
// function's parameters and locals, then the locals of the script's probes.
template <typename F> void for_each_local(const Program &p, F &&f) {
  for (ast::FunctionDecl *fn : p.functions) {
    for (ast::VarDecl *v : fn->params)
      f(v);
    for (ast::VarDecl *v : fn->locals)
      f(v);
  }
  for (ast::ProbeDecl *pr : p.files.front()->probes)
    for (ast::VarDecl *v : pr->locals)
      f(v);
}

// The resolved points of one probe declaration: a body shared by several
// points (a wildcard, an alias) is checked or rewritten once, knowing all.
struct ProbePoints {
  ast::ProbeDecl *decl;
  std::vector<probes::ResolvedProbe *> points;
};

// Every declaration with its points, in the order of its first point.
inline std::vector<ProbePoints> points_by_decl(Program &p) {
  std::vector<ProbePoints> out;
  std::map<ast::ProbeDecl *, size_t> index;
  for (probes::ResolvedProbe &rp : p.probes) {
    auto [it, added] = index.emplace(rp.decl, out.size());
    if (added)
      out.push_back({rp.decl, {}});
    out[it->second].points.push_back(&rp);
  }
  return out;
}

} // namespace stap
