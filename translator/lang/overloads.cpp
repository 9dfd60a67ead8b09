#include "lang/overloads.h"

#include "ast/visitor.h"

#include <algorithm>

namespace stap::lang {

bool may_next(const ast::FunctionDecl &fn) {
  if (auto *c = dynamic_cast<const ast::EmbeddedStmt *>(fn.body))
    return c->code.find("STAP_NEXT") != std::string::npos;
  struct Finder : ast::Visitor {
    bool found = false;
    void visit(ast::NextStmt &) override { found = true; }
  } f;
  if (fn.body)
    fn.body->accept(f);
  return f.found;
}

std::vector<ast::FunctionDecl *> overload_chain(
    const std::vector<std::unique_ptr<ast::File>> &files, const std::string &name, size_t arity,
    const std::function<bool(const ast::File &, const ast::FunctionDecl &)> &visible) {
  struct Candidate {
    int64_t priority;
    ast::FunctionDecl *fn;
  };
  std::vector<Candidate> all;
  for (const auto &f : files) {
    bool library = f != files.front();
    for (ast::FunctionDecl *fn : f->functions)
      if (fn->name == name && fn->params.size() == arity && visible(*f, *fn))
        all.push_back({fn->priority.value_or(library ? 1 : 0), fn});
  }
  // Files are in declaration order (the script, then the library in
  // search-path order), and so is each file's list: a stable sort keeps it.
  std::stable_sort(all.begin(), all.end(),
                   [](const Candidate &a, const Candidate &b) { return a.priority < b.priority; });
  std::vector<ast::FunctionDecl *> chain;
  for (const Candidate &c : all) {
    chain.push_back(c.fn);
    if (!may_next(*c.fn))
      break;
  }
  return chain;
}

} // namespace stap::lang
