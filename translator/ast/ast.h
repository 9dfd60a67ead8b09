// The abstract syntax tree of the SystemTap script language.
//
// Nodes are plain structs owned by an ast::Arena and linked by raw pointers:
// they are never freed before the whole program is, and pointers are cheap
// to pass through the grammar's semantic actions and through the passes.
// Every node carries the SourceLoc of its first token (a binary operator:
// of the operator token). Later passes annotate
// nodes in place (`type`, resolved `decl` pointers) rather than building
// side tables.
#pragma once
#include "ast/operators.h"
#include "util/source.h"

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace stap::debuginfo {
class TypeTable;
struct TargetScope;
}

namespace stap::ast {

class Visitor;

// Script-level value types, filled in by type inference (pass 2).
enum class Type : uint8_t { Unknown, Long, String, Stats };
const char *type_name(Type t);

struct Node {
  SourceLoc loc;
  virtual ~Node() = default;
  virtual void accept(Visitor &v) = 0;
};

// ---------------------------------------------------------------- expressions

struct Expr : Node {
  Type type = Type::Unknown;
};

struct NumberLit : Expr {
  int64_t value = 0;
  std::string spelling; // as written (hex stays hex when printed)
  void accept(Visitor &v) override;
};

struct StringLit : Expr {
  std::string value; // escapes processed, adjacent literals concatenated
  void accept(Visitor &v) override;
};

// `-x`, `!x`, `~x`, `+x`
struct UnaryExpr : Expr {
  UnaryOp op = UnaryOp::Minus;
  Expr *operand = nullptr;
  void accept(Visitor &v) override;
};

// `++x`, `x--`
struct IncDecExpr : Expr {
  IncDecOp op = IncDecOp::Inc;
  bool prefix = true;
  Expr *operand = nullptr;
  void accept(Visitor &v) override;
};

// Arithmetic, bitwise, logical, comparison, string concatenation (`.`) and
// regular-expression match (`=~`, `!~`) share one node: `op` says which.
struct BinaryExpr : Expr {
  BinaryOp op = BinaryOp::Add;
  Expr *left = nullptr, *right = nullptr;
  void accept(Visitor &v) override;
};

struct TernaryExpr : Expr {
  Expr *cond = nullptr, *then_expr = nullptr, *else_expr = nullptr;
  void accept(Visitor &v) override;
};

// `=`, `+=`, ..., `.=`, and the aggregation operator `<<<`.
struct AssignExpr : Expr {
  AssignOp op = AssignOp::Assign;
  Expr *target = nullptr, *value = nullptr;
  void accept(Visitor &v) override;
};

struct VarDecl;
struct GlobalDecl;

// A script variable: a local, a function parameter or a global.
struct SymbolExpr : Expr {
  std::string name;
  // Bound by symbol resolution: exactly one of these is set afterwards.
  VarDecl *local = nullptr;
  GlobalDecl *global = nullptr;
  void accept(Visitor &v) override;
};

struct HistExpr;

// `A[i, j]`. An index may be nullptr for the wildcard `*` (allowed in `in`,
// `delete` and foreach slices). `base` is a SymbolExpr, or a HistExpr for
// indexing histogram buckets.
struct IndexExpr : Expr {
  Expr *base = nullptr;
  std::vector<Expr *> indexes;
  void accept(Visitor &v) override;
};

struct FunctionDecl;

struct CallExpr : Expr {
  std::string name;
  std::vector<Expr *> args;
  FunctionDecl *callee = nullptr; // bound in pass 2 (first of the overloads)
  // Every overload of this name and arity the call may run, in priority
  // order (callee first); the chain ends at the first one without `next`.
  std::vector<FunctionDecl *> overloads;
  void accept(Visitor &v) override;
};

// `[k1, k2] in A` and `k in A`. A nullptr key is the wildcard `*`.
struct InExpr : Expr {
  std::vector<Expr *> keys;
  Expr *array = nullptr;
  void accept(Visitor &v) override;
};

// One step after a target variable: `->name`, `[expr]`, or the pretty
// printing suffix `$` / `$$` (which ends a chain).
struct TargetComponent {
  enum Kind : uint8_t { Member, Index, Pretty } kind = Member;
  std::string name;    // Member: field name; Pretty: "$" or "$$"
  Expr *index = nullptr; // Index
  SourceLoc loc;
};

// `$var`, `$var->f[2]`, `$$vars`, `$$parms$`, `&$var->f`, `$return`.
struct TargetExpr : Expr {
  std::string name; // including the leading '$' ("$foo", "$$vars")
  std::vector<TargetComponent> components;
  bool addressof = false;
  // Pass 2's answer when the probe family says how to read it (an SDT
  // marker's $arg1, a uprobe's $return): C for the code generator.
  std::string c_expr;
  // --skip-badvars: the points (their scopes; nullptr for a point without
  // one) where this variable does not resolve and reads as 0.
  std::vector<const debuginfo::TargetScope *> substituted_at;
  void accept(Visitor &v) override;
};

// `@cast(addr, "type" [, "module"])->f` and `@var("name[@file]" [, "module"])->f`.
struct CastExpr : Expr {
  enum Kind : uint8_t { Cast, Var } kind = Cast;
  Expr *operand = nullptr; // @cast only
  std::string type_or_var; // type name for @cast, variable for @var
  std::optional<std::string> module;
  std::vector<TargetComponent> components;
  bool addressof = false;
  // Bound by pass 2 (passes/target_vars.cpp) for @cast: the debuginfo
  // that names the type, and the type.
  std::shared_ptr<const debuginfo::TypeTable> types;
  uint32_t type_id = 0;
  // @var: C for the variable's address (`var_address`) or value, from
  // its DWARF location.
  std::string var_c;
  bool var_address = true;
  // The type is a user program's or library's (the module is its path):
  // the chain reads the current task's user memory.
  bool user = false;
  void accept(Visitor &v) override;
};

// `expr->member...` on a value that is not itself a $target or @cast: a
// script variable or function result that carries a DWARF type (autocast).
struct AutocastExpr : Expr {
  Expr *operand = nullptr;
  std::vector<TargetComponent> components;
  bool addressof = false; // `&p->member`
  // Bound by pass 2 (passes/autocast.cpp): the debuginfo type the operand
  // carries. `operand_address`: the operand is the address of an object
  // of type `type_id` (`&$x->f`, an array); else it is a value of that
  // type (a pointer).
  std::shared_ptr<const debuginfo::TypeTable> types;
  uint32_t type_id = 0;
  bool operand_address = false;
  bool operand_user = false;
  void accept(Visitor &v) override;
};

// The @-operators that take expressions and yield a value: @defined,
// @entry, @probewrite, @const, @kregister, @uregister, @kderef, @uderef,
// @perf, @errno... `name` is without the '@'.
struct AtOpExpr : Expr {
  std::string name;
  std::vector<Expr *> args;
  // @perf("NAME"): its counter's slot in a task's events, bound by pass 2
  // (passes/perf_counters.cpp); -1 until then.
  int64_t slot = -1;
  void accept(Visitor &v) override;
};

// `@count(s)`, `@sum(s)`, `@min`, `@max`, `@avg`, `@variance(s [, shift])`.
struct StatExpr : Expr {
  StatOp op = StatOp::Count;
  Expr *stat = nullptr;
  Expr *param = nullptr; // @variance shift, or nullptr
  void accept(Visitor &v) override;
};

// `@hist_linear(s, lo, hi, width)` and `@hist_log(s)`.
struct HistExpr : Expr {
  enum Kind : uint8_t { Linear, Log } kind = Log;
  Expr *stat = nullptr;
  std::vector<Expr *> params; // lo, hi, width for Linear
  void accept(Visitor &v) override;
};

// `%{ C %}` used as an expression (guru mode).
struct EmbeddedExpr : Expr {
  std::string code;
  void accept(Visitor &v) override;
};

// ---------------------------------------------------------------- statements

struct Stmt : Node {};

struct BlockStmt : Stmt {
  std::vector<Stmt *> stmts;
  // A library alias's body (and its copies in the probes that use it):
  // its names resolve in that file, which may have private globals and
  // functions (nullptr: where the block is).
  const SourceFile *file = nullptr;
  void accept(Visitor &v) override;
};

struct ExprStmt : Stmt {
  Expr *expr = nullptr;
  void accept(Visitor &v) override;
};

// The null statement `;`.
struct NullStmt : Stmt {
  void accept(Visitor &v) override;
};

struct IfStmt : Stmt {
  Expr *cond = nullptr;
  Stmt *then_stmt = nullptr, *else_stmt = nullptr;
  void accept(Visitor &v) override;
};

struct WhileStmt : Stmt {
  Expr *cond = nullptr;
  Stmt *body = nullptr;
  void accept(Visitor &v) override;
};

// `for (init; cond; step) body`; any of the three may be nullptr.
struct ForStmt : Stmt {
  Expr *init = nullptr, *cond = nullptr, *step = nullptr;
  Stmt *body = nullptr;
  void accept(Visitor &v) override;
};

// foreach ([v =] [k1, k2] in A[slice] [sort] [limit N]) body
struct ForeachStmt : Stmt {
  SymbolExpr *value = nullptr;         // `v =` form, or nullptr
  std::vector<SymbolExpr *> keys;
  Expr *array = nullptr;               // SymbolExpr or HistExpr
  std::vector<Expr *> slice;           // `A[*, expr]` (nullptr = `*`); empty if none
  // Sorting: sort_column 0 = by value, 1..N = by key N; sort_dir +1 / -1,
  // 0 = unsorted. `sort_aggr` is the extractor for stats values (@count...).
  int sort_column = 0, sort_dir = 0;
  std::optional<StatOp> sort_aggr;
  Expr *limit = nullptr;
  Stmt *body = nullptr;
  void accept(Visitor &v) override;
};

struct BreakStmt : Stmt {
  void accept(Visitor &v) override;
};
struct ContinueStmt : Stmt {
  void accept(Visitor &v) override;
};
struct NextStmt : Stmt {
  void accept(Visitor &v) override;
};

struct ReturnStmt : Stmt {
  Expr *value = nullptr;
  void accept(Visitor &v) override;
};

struct DeleteStmt : Stmt {
  Expr *target = nullptr; // SymbolExpr or IndexExpr (with wildcards)
  void accept(Visitor &v) override;
};

struct TryStmt : Stmt {
  BlockStmt *try_block = nullptr;
  SymbolExpr *catch_var = nullptr; // `catch (msg)`, or nullptr
  BlockStmt *catch_block = nullptr;
  void accept(Visitor &v) override;
};

// `%{ C %}` as a statement (only as a function body in SystemTap, but the
// node also serves top-level blocks).
struct EmbeddedStmt : Stmt {
  std::string code;
  void accept(Visitor &v) override;
};

// ---------------------------------------------------------------- declarations

// A local variable or a function parameter.
struct VarDecl : Node {
  std::string name;
  Type type = Type::Unknown;
  bool declared_type = false; // `name:long`
  void accept(Visitor &v) override;
};

struct GlobalDecl : Node {
  std::string name;
  Expr *init = nullptr;     // NumberLit or StringLit
  Expr *size = nullptr;     // `x[100]`
  bool array = false;       // declared with [] or used with indexes
  bool wrap = false;        // `x%` / `x%[N]`
  bool is_private = false;
  // An @entry value (passes/entry_values.cpp): stored in the kretprobe
  // instance's data, so it needs no lock and is not a module variable.
  bool entry_slot = false;
  const SourceFile *file = nullptr; // for `private` scoping
  // Filled in by type inference.
  Type type = Type::Unknown;
  std::vector<Type> key_types;
  // Statistics only, filled in by check_stats: the one histogram shape all
  // `@hist_*` of this variable use, and the @variance bit shift.
  struct StatShape {
    enum Hist : uint8_t { None, Log, Linear } hist = None;
    int64_t start = 0, stop = 0, interval = 0;
    bool variance = false;
    int shift = 0;
  } stat;
  void accept(Visitor &v) override;
};

struct FunctionDecl : Node {
  std::string name;
  Type return_type = Type::Unknown;
  bool declared_type = false;
  std::vector<VarDecl *> params;
  std::vector<VarDecl *> locals; // filled by symbol resolution
  Stmt *body = nullptr;          // BlockStmt or EmbeddedStmt
  std::optional<int64_t> priority;
  // The nth function of this name and arity in the program (their C names
  // differ by it); set by symbol resolution.
  unsigned overload_index = 0;
  bool is_private = false;
  const SourceFile *file = nullptr;
  void accept(Visitor &v) override;
};

// One dotted component of a probe point: `function("sys_*")`, `return`, `*`.
struct ProbePointComponent {
  std::string functor;      // may contain wildcards; "**" matches many
  Expr *arg = nullptr;      // NumberLit or StringLit, or nullptr
  SourceLoc loc;
};

struct ProbePoint : Node {
  std::vector<ProbePointComponent> components;
  bool optional = false;    // trailing `?`
  bool sufficient = false;  // trailing `!`
  Expr *condition = nullptr; // `if (expr)`
  void accept(Visitor &v) override;
};

struct ProbeDecl : Node {
  std::vector<ProbePoint *> points;
  BlockStmt *body = nullptr;
  std::vector<VarDecl *> locals; // filled by symbol resolution
  bool is_private = false;       // `private probe` is rejected, kept for errors
  // A library file's probe: its body sees that file's private globals
  // (nullptr: the script's own probe).
  const SourceFile *file = nullptr;
  void accept(Visitor &v) override;
};

// `probe a.b = x.y, z { prologue }` or `probe a.b += x.y { epilogue }`.
struct ProbeAliasDecl : Node {
  std::vector<ProbePoint *> names;   // the alias names being defined
  std::vector<ProbePoint *> targets; // what they expand to
  bool epilogue = false;             // `+=`
  BlockStmt *body = nullptr;
  // The combined form `probe a = x.y { prologue }, { epilogue }`: `body` is
  // the prologue, this the epilogue (nullptr otherwise).
  BlockStmt *epilogue_body = nullptr;
  const SourceFile *file = nullptr;
  void accept(Visitor &v) override;
};

// `%{ C %}` at file scope.
struct EmbeddedDecl : Node {
  std::string code;
  void accept(Visitor &v) override;
};

// The declarations of one parsed file, in source order.
struct File {
  std::shared_ptr<SourceFile> source;
  std::vector<ProbeDecl *> probes;
  std::vector<ProbeAliasDecl *> aliases;
  std::vector<FunctionDecl *> functions;
  std::vector<GlobalDecl *> globals;
  std::vector<EmbeddedDecl *> embeds;
  // All of the above in source order, for printing (-p1).
  std::vector<Node *> decls;
};

// Owns every node. Allocation only: nodes live as long as the arena.
class Arena {
public:
  template <typename T, typename... Args> T *make(SourceLoc loc, Args &&...args) {
    auto p = std::make_unique<T>(std::forward<Args>(args)...);
    p->loc = loc;
    T *raw = p.get();
    nodes_.push_back(std::move(p));
    return raw;
  }
  size_t size() const { return nodes_.size(); }

private:
  std::vector<std::unique_ptr<Node>> nodes_;
};

} // namespace stap::ast
