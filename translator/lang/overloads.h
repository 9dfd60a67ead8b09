// Functions of one name and arity are overloads, run in priority order: a
// function that executes `next` (STAP_NEXT in embedded C) hands the call
// to the next one. The priority is the declared `:N`, else 0 in the user
// script and 1 in the tapset library; equal priorities keep declaration
// order. An overload after one that never says `next` cannot run and is
// left out, as SystemTap 4.8 does.
#pragma once
#include "ast/ast.h"

#include <functional>
#include <memory>
#include <string>
#include <vector>

namespace stap::lang {

// Can `fn` end with `next` (a `next` statement, or STAP_NEXT in its C)?
bool may_next(const ast::FunctionDecl &fn);

// The overloads a call of `name` with `arity` arguments runs, in order,
// among `files` (the user script first, then the library); `visible` says
// which declarations the caller may see (private ones).
std::vector<ast::FunctionDecl *> overload_chain(
    const std::vector<std::unique_ptr<ast::File>> &files, const std::string &name, size_t arity,
    const std::function<bool(const ast::File &, const ast::FunctionDecl &)> &visible);

} // namespace stap::lang
