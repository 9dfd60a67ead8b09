#include "ast/operators.h"

#include <array>

namespace stap::ast {
namespace {

// Spellings in enum order: each table has one entry per enumerator.
constexpr std::array<std::string_view, 4> kUnary = {"+", "-", "!", "~"};
constexpr std::array<std::string_view, 22> kBinary = {
    "+", "-",  "*",  "/",  "%",  "<<", ">>", ">>>", "&",  "|",  "^",
    "&&", "||", "<", "<=", ">", ">=", "==", "!=",  "=~", "!~", "."};
constexpr std::array<std::string_view, 13> kAssign = {
    "=", "+=", "-=", "*=", "/=", "%=", "<<=", ">>=", "&=", "|=", "^=", ".=", "<<<"};
constexpr std::array<std::string_view, 2> kIncDec = {"++", "--"};
constexpr std::array<std::string_view, 6> kStat = {"count", "sum", "min", "max", "avg", "variance"};

static_assert(kBinary.size() == static_cast<size_t>(BinaryOp::Concat) + 1);
static_assert(kAssign.size() == static_cast<size_t>(AssignOp::Aggregate) + 1);
static_assert(kStat.size() == static_cast<size_t>(StatOp::Variance) + 1);

template <typename Op, size_t N>
std::optional<Op> lookup(const std::array<std::string_view, N> &table, std::string_view s) {
  for (size_t i = 0; i < N; ++i)
    if (table[i] == s)
      return static_cast<Op>(i);
  return std::nullopt;
}

} // namespace

std::string spelling(UnaryOp op) { return std::string(kUnary[static_cast<size_t>(op)]); }
std::string spelling(BinaryOp op) { return std::string(kBinary[static_cast<size_t>(op)]); }
std::string spelling(AssignOp op) { return std::string(kAssign[static_cast<size_t>(op)]); }
std::string spelling(IncDecOp op) { return std::string(kIncDec[static_cast<size_t>(op)]); }
std::string spelling(StatOp op) { return std::string(kStat[static_cast<size_t>(op)]); }

std::optional<UnaryOp> unary_op(std::string_view s) { return lookup<UnaryOp>(kUnary, s); }
std::optional<BinaryOp> binary_op(std::string_view s) { return lookup<BinaryOp>(kBinary, s); }
std::optional<AssignOp> assign_op(std::string_view s) { return lookup<AssignOp>(kAssign, s); }
std::optional<IncDecOp> incdec_op(std::string_view s) { return lookup<IncDecOp>(kIncDec, s); }
std::optional<StatOp> stat_op(std::string_view s) { return lookup<StatOp>(kStat, s); }

std::optional<BinaryOp> compound_binary(AssignOp op) {
  switch (op) {
  case AssignOp::Add: return BinaryOp::Add;
  case AssignOp::Sub: return BinaryOp::Sub;
  case AssignOp::Mul: return BinaryOp::Mul;
  case AssignOp::Div: return BinaryOp::Div;
  case AssignOp::Mod: return BinaryOp::Mod;
  case AssignOp::Shl: return BinaryOp::Shl;
  case AssignOp::Shr: return BinaryOp::Shr;
  case AssignOp::BitAnd: return BinaryOp::BitAnd;
  case AssignOp::BitOr: return BinaryOp::BitOr;
  case AssignOp::BitXor: return BinaryOp::BitXor;
  case AssignOp::Concat: return BinaryOp::Concat;
  case AssignOp::Assign:
  case AssignOp::Aggregate: return std::nullopt;
  }
  return std::nullopt;
}

bool is_comparison(BinaryOp op) {
  switch (op) {
  case BinaryOp::Lt: case BinaryOp::Le: case BinaryOp::Gt:
  case BinaryOp::Ge: case BinaryOp::Eq: case BinaryOp::Ne:
    return true;
  default:
    return false;
  }
}

} // namespace stap::ast
