// The script language's operators, as enums: the parser makes them from
// the lexer's spelling once, and every pass and the code generator switch
// on them instead of comparing strings. spelling() gives the text back for
// diagnostics and -p1 output.
#pragma once
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace stap::ast {

// `+x -x !x ~x`
enum class UnaryOp : uint8_t { Plus, Minus, Not, BitNot };

// `+ - * / %`, `<< >> >>>`, `& | ^`, `&& ||`, `< <= > >= == !=`, `=~ !~`,
// `.` (string concatenation).
enum class BinaryOp : uint8_t {
  Add, Sub, Mul, Div, Mod,
  Shl, Shr, ShrLogical,
  BitAnd, BitOr, BitXor,
  LogAnd, LogOr,
  Lt, Le, Gt, Ge, Eq, Ne,
  Match, NoMatch,
  Concat,
};

// `=`, the compound assignments `+= -= *= /= %= <<= >>= &= |= ^= .=`, and
// the aggregation operator `<<<`.
enum class AssignOp : uint8_t {
  Assign,
  Add, Sub, Mul, Div, Mod, Shl, Shr, BitAnd, BitOr, BitXor, Concat,
  Aggregate,
};

// `++` and `--`, prefix or postfix.
enum class IncDecOp : uint8_t { Inc, Dec };

// The statistics extractors `@count @sum @min @max @avg @variance`.
enum class StatOp : uint8_t { Count, Sum, Min, Max, Avg, Variance };

// The operator as written: "+", ">>>", "<<<", "++"; a StatOp without its
// '@': "count".
std::string spelling(UnaryOp op);
std::string spelling(BinaryOp op);
std::string spelling(AssignOp op);
std::string spelling(IncDecOp op);
std::string spelling(StatOp op);

// The operator a spelling names, if any (the parser's direction).
std::optional<UnaryOp> unary_op(std::string_view s);
std::optional<BinaryOp> binary_op(std::string_view s);
std::optional<AssignOp> assign_op(std::string_view s);
std::optional<IncDecOp> incdec_op(std::string_view s);
std::optional<StatOp> stat_op(std::string_view s); // "count", no '@'

// The binary operator a compound assignment applies (`+=`: `+`); none for
// `=` and `<<<`.
std::optional<BinaryOp> compound_binary(AssignOp op);
// `< <= > >= == !=`: both operands of one type, long or string.
bool is_comparison(BinaryOp op);

} // namespace stap::ast
