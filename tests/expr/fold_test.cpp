#include <gtest/gtest.h>

#include <set>
#include <string>

#include "support.h"

namespace topdown::expr {
namespace {

using testing::Names;

// Knows exactly the names in `names`; everything else stays unknown.
auto knowing(const Names& names) {
  return [names](std::string_view name) -> std::optional<Value> {
    const auto found = names.find(name);
    if (found == names.end()) return std::nullopt;
    return found->second;
  };
}

std::string folded(std::string_view text, const Names& known) {
  return Expression::parse(text).fold(knowing(known)).to_string();
}

TEST(Fold, KnownConditionKeepsOnlyTheTakenBranch) {
  const auto expression = Expression::parse("A / 2 if smt_enabled else B");
  const auto without_smt = expression.fold(knowing({{"smt_enabled", 0.0}}));
  EXPECT_EQ(without_smt.to_string(), "B");
  EXPECT_EQ(without_smt.identifiers(), std::set<std::string>{"B"});
  const auto with_smt = expression.fold(knowing({{"smt_enabled", 1.0}}));
  EXPECT_EQ(with_smt.to_string(), "A / 2");
  EXPECT_EQ(with_smt.identifiers(), std::set<std::string>{"A"});
  // The original is untouched.
  EXPECT_EQ(expression.identifiers(), (std::set<std::string>{"A", "B", "smt_enabled"}));
}

TEST(Fold, ChainsCollapseAsFarAsTheyAreKnown) {
  const std::string core_clks = "T / 2 * (1 + O / R) if ebs_mode else TA / 2 if smt_enabled else CLKS";
  EXPECT_EQ(folded(core_clks, {{"ebs_mode", 0.0}, {"smt_enabled", 0.0}}), "CLKS");
  EXPECT_EQ(folded(core_clks, {{"ebs_mode", 0.0}}), "TA / 2 if smt_enabled else CLKS");
  EXPECT_EQ(folded(core_clks, {{"smt_enabled", 1.0}}), "T / 2 * (1 + O / R) if ebs_mode else TA / 2");
}

TEST(Fold, OnlyOperationsWithAllOperandsKnownFold) {
  EXPECT_EQ(folded("0 * X", {}), "0 * X");
  EXPECT_EQ(folded("W * X", {{"W", 0.0}}), "0 * X");
  EXPECT_EQ(folded("Pipeline_Width * CLKS", {{"Pipeline_Width", 4.0}}), "4 * CLKS");
  EXPECT_EQ(folded("d_ratio(X, 0)", {}), "d_ratio(X, 0)");
  EXPECT_EQ(folded("(2 + 3) * X + 1 / 4", {}), "5 * X + 0.25");
  EXPECT_EQ(folded("min(a, b) + c", {{"a", 1.0}, {"b", 3.0}}), "1 + c");
  EXPECT_EQ(folded("a + b", {{"a", 1.0}, {"b", 3.0}}), "4");
}

TEST(Fold, ShortCircuitsFoldLikeEvaluation) {
  EXPECT_EQ(folded("off and X > 1", {{"off", 0.0}}), "0");
  EXPECT_EQ(folded("on or X > 1", {{"on", 1.0}}), "1");
  EXPECT_EQ(folded("on and X > 1", {{"on", 1.0}}), "1 and X > 1");
  EXPECT_EQ(folded("X > 1 and off", {{"off", 0.0}}), "X > 1 and 0");
}

TEST(Fold, KnownNotAvailableFoldsToNotAvailable) {
  const auto missing = Expression::parse("A / B").fold(knowing({{"B", std::nullopt}}));
  EXPECT_FALSE(missing.is_constant());
  EXPECT_EQ(missing.evaluate(testing::scope_of({{"A", 1.0}})), std::nullopt);
  const auto gone = Expression::parse("X if mode else Y").fold(knowing({{"mode", std::nullopt}}));
  EXPECT_TRUE(gone.is_constant());
  EXPECT_EQ(gone.evaluate(testing::scope_of({})), std::nullopt);
  // n/a has no literal; its canonical text evaluates and folds back to n/a.
  EXPECT_EQ(gone.to_string(), "0 / 0");
  EXPECT_EQ(Expression::parse(gone.to_string()).fold(knowing({})).to_string(), "0 / 0");
}

TEST(Fold, DivisionByKnownZeroFoldsToNotAvailable) {
  const auto expression = Expression::parse("A / (B - 1)").fold(knowing({{"A", 3.0}, {"B", 1.0}}));
  EXPECT_TRUE(expression.is_constant());
  EXPECT_EQ(expression.evaluate(testing::scope_of({})), std::nullopt);
}

TEST(Fold, FoldedValueEqualsEvaluatedValue) {
  const std::string text = "(a + b) * c / max(d, 1) - (e if a > b else -e)";
  const Names all = {{"a", 2.0}, {"b", 5.0}, {"c", 3.0}, {"d", 0.5}, {"e", 7.0}};
  const auto expression = Expression::parse(text);
  const auto full = expression.fold(knowing(all));
  EXPECT_TRUE(full.is_constant());
  EXPECT_EQ(full.evaluate(testing::scope_of({})), expression.evaluate(testing::scope_of(all)));
  const auto partial = expression.fold(knowing({{"a", 2.0}, {"b", 5.0}}));
  EXPECT_EQ(partial.identifiers(), (std::set<std::string>{"c", "d", "e"}));
  EXPECT_EQ(partial.evaluate(testing::scope_of(all)), expression.evaluate(testing::scope_of(all)));
}

TEST(Fold, IsConstantMeansNoNamesLeft) {
  EXPECT_TRUE(Expression::parse("1 + 2 * 3").is_constant());
  EXPECT_TRUE(Expression().is_constant());
  EXPECT_FALSE(Expression::parse("1 + x").is_constant());
  EXPECT_TRUE(Expression::parse("1 + x").fold(knowing({{"x", 2.0}})).is_constant());
}

TEST(Fold, UnknownNamesAreLeftAlone) {
  const auto expression = Expression::parse("IDQ_UOPS_NOT_DELIVERED.CORE / SLOTS");
  EXPECT_EQ(expression.fold(knowing({})).to_string(), expression.to_string());
  EXPECT_EQ(expression.fold(knowing({})).identifiers(), expression.identifiers());
}

}  // namespace
}  // namespace topdown::expr
