// The operators as enums (ast/operators.h): every spelling the lexer
// produces for an operator names exactly one, and spelling() gives it back.
#include "ast/operators.h"

#include <gtest/gtest.h>

using namespace stap::ast;

TEST(Operators, SpellingsRoundTrip) {
  for (const char *s : {"+", "-", "*", "/", "%", "<<", ">>", ">>>", "&", "|", "^", "&&", "||", "<",
                        "<=", ">", ">=", "==", "!=", "=~", "!~", "."}) {
    auto op = binary_op(s);
    ASSERT_TRUE(op) << s;
    EXPECT_EQ(spelling(*op), s);
  }
  for (const char *s : {"=", "+=", "-=", "*=", "/=", "%=", "<<=", ">>=", "&=", "|=", "^=", ".=", "<<<"}) {
    auto op = assign_op(s);
    ASSERT_TRUE(op) << s;
    EXPECT_EQ(spelling(*op), s);
  }
  for (const char *s : {"+", "-", "!", "~"})
    EXPECT_EQ(spelling(*unary_op(s)), s);
  EXPECT_EQ(spelling(*incdec_op("--")), "--");
  EXPECT_EQ(spelling(*stat_op("variance")), "variance");
  EXPECT_FALSE(binary_op("="));
  EXPECT_FALSE(assign_op(">>>="));   // no such operator in the language
  EXPECT_FALSE(stat_op("@count"));   // the '@' is not part of it
}

TEST(Operators, CompoundAssignmentsApplyTheirBinaryOperator) {
  EXPECT_EQ(compound_binary(AssignOp::Add), BinaryOp::Add);
  EXPECT_EQ(compound_binary(AssignOp::Shr), BinaryOp::Shr);
  EXPECT_EQ(compound_binary(AssignOp::Concat), BinaryOp::Concat);
  EXPECT_FALSE(compound_binary(AssignOp::Assign));
  EXPECT_FALSE(compound_binary(AssignOp::Aggregate));
  EXPECT_TRUE(is_comparison(BinaryOp::Le));
  EXPECT_FALSE(is_comparison(BinaryOp::Match));
}
