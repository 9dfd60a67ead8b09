// Pass 2, after target variables are typed: autocast. A script value that
// came from a typed pointer keeps that type, so `->` works on it as on the
// `$var` itself, as in SystemTap 4.8:
//
//     p = $file; println(kernel_string(p->f_path->dentry->d_name->name))
//     function inode_of() { return @cast(f, "struct file")->f_inode }
//     ... inode_of()->i_ino
//
// The type travels, flow-insensitively, through assignments to locals and
// globals and through function returns (not into function parameters, as
// in 4.8). Values without a type (`p = 5`) do not erase one; two different
// types do, and then `p->x` is 4.8's "unknown type in dereference" error.
// A body shared by several probe points must give each `$var` the same
// type at each of them.
#pragma once
#include "passes/program.h"
#include "passes/target_vars.h"
#include "util/diag.h"

namespace stap {

// The walk of an autocast that resolve_autocasts bound (for checks that
// follow it, such as writes).
std::optional<TypedResult> bound_autocast_result(const ast::AutocastExpr &n,
                                                 debuginfo::AccessError &err);

void resolve_autocasts(const probes::ResolveEnv &env, Program &program, Diagnostics &diag);

} // namespace stap
