#include <gtest/gtest.h>

#include <string>

#include "support.h"

namespace topdown::expr {
namespace {

// Renames identifiers by a table; everything else is left alone.
auto renaming(const std::map<std::string, std::string>& names) {
  return [names](const Expression& part) -> std::optional<Expression> {
    const auto name = part.identifier();
    if (!name || !names.count(*name)) return std::nullopt;
    return Expression::parse(names.at(*name));
  };
}

TEST(Rewrite, RenamesIdentifiersEverywhere) {
  const auto expression = Expression::parse("a / b if #SMT_on else min(a, c) + d_ratio(a, 2)");
  const auto renamed = expression.rewrite(renaming({{"a", "x"}, {"#SMT_on", "#smt_on"}}));
  EXPECT_EQ(renamed.to_string(), "x / b if #smt_on else min(x, c) + d_ratio(x, 2)");
  EXPECT_EQ(expression.to_string(), "a / b if #SMT_on else min(a, c) + d_ratio(a, 2)");
}

TEST(Rewrite, ReplacesAWholeSubtreeAndDoesNotLookInsideIt) {
  const auto parent_test = Expression::parse("p > 0.1 & g > 0.2").to_string();
  int visited_inside = 0;
  const auto rewritten = Expression::parse("x > 0.05 & (p > 0.1 & g > 0.2)").rewrite([&](const Expression& part) {
    if (part.identifier() == "g") ++visited_inside;
    return part.to_string() == parent_test ? std::optional(Expression::parse("parent_over")) : std::nullopt;
  });
  EXPECT_EQ(rewritten.to_string(), "x > 0.05 and parent_over");
  EXPECT_EQ(visited_inside, 0);
}

TEST(Rewrite, NothingToReplaceGivesAnEqualExpression) {
  const auto expression = Expression::parse("(a + b) * c if a > 1 else -c");
  const auto same = expression.rewrite([](const Expression&) { return std::optional<Expression>(); });
  EXPECT_EQ(same.to_string(), expression.to_string());
  const testing::Names names = {{"a", 2.0}, {"b", 1.0}, {"c", 4.0}};
  EXPECT_EQ(same.evaluate(testing::scope_of(names)), Value(12.0));
}

TEST(Identifier, OnlyAWholeIdentifierHasOne) {
  EXPECT_EQ(Expression::parse("cpu@INST_RETIRED.ANY\\,cmask\\=1@").identifier(), "cpu/INST_RETIRED.ANY,cmask=1/");
  EXPECT_EQ(Expression::parse("has_event(cycles\\-t)").identifier(), "has_event(cycles-t)");
  EXPECT_EQ(Expression::parse("a + b").identifier(), std::nullopt);
  EXPECT_EQ(Expression::parse("2").identifier(), std::nullopt);
}

TEST(Complement, IsAConstantMinusTheRest) {
  EXPECT_TRUE(Expression::parse("1 - Frontend_Bound").is_complement());
  EXPECT_TRUE(Expression::parse("1 - (Frontend_Bound + Bad_Speculation + Retiring)").is_complement());
  EXPECT_TRUE(Expression::parse("1 - a - b - c").is_complement());
  EXPECT_FALSE(Expression::parse("a - b").is_complement());
  EXPECT_FALSE(Expression::parse("a / b").is_complement());
  EXPECT_FALSE(Expression::parse("(1 - a) * b").is_complement());
  EXPECT_FALSE(Expression::parse("a - (1 - b)").is_complement());
  EXPECT_FALSE(Expression::parse("1").is_complement());
}

}  // namespace
}  // namespace topdown::expr
