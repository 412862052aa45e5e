#include <gtest/gtest.h>

#include <limits>
#include <string>
#include <vector>

#include "support.h"

namespace topdown::expr {
namespace {

using testing::evaluate;
using testing::Names;

const Value kNa = std::nullopt;

TEST(Evaluate, NotAvailablePropagatesThroughArithmetic) {
  const Names names = {{"x", kNa}, {"y", 2.0}};
  for (const std::string text : {"x + y", "y - x", "x * y", "y / x", "-x", "abs(x)", "x % y", "min(x, y)", "max(y, x)",
                                 "d_ratio(x, y)", "d_ratio(y, x)", "(x + 1) * 0"}) {
    EXPECT_EQ(evaluate(text, names), kNa) << text;
  }
}

TEST(Evaluate, ComparisonsWithNotAvailableAreNotAvailable) {
  const Names names = {{"x", kNa}, {"y", 2.0}};
  for (const std::string text : {"x < y", "x <= y", "y > x", "x >= y", "x == x", "x != y", "not x"}) {
    EXPECT_EQ(evaluate(text, names), kNa) << text;
  }
}

TEST(Evaluate, DivisionByZeroIsNotAvailable) {
  EXPECT_EQ(evaluate("1 / 0"), kNa);
  EXPECT_EQ(evaluate("0 / 0"), kNa);
  EXPECT_EQ(evaluate("5 % 0"), kNa);
  EXPECT_EQ(evaluate("a / (b - b)", {{"a", 3.0}, {"b", 7.0}}), kNa);
  EXPECT_EQ(evaluate("7 % 3"), 1.0);
  EXPECT_EQ(evaluate("-7 % 3"), -1.0);  // C's fmod: the sign follows the dividend
}

TEST(Evaluate, DRatioOfZeroIsZero) {
  EXPECT_EQ(evaluate("d_ratio(5, 0)"), 0.0);
  EXPECT_EQ(evaluate("d_ratio(0, 0)"), 0.0);
  EXPECT_EQ(evaluate("d_ratio(5, 2)"), 2.5);
}

TEST(Evaluate, AndOrShortCircuitLeftToRight) {
  const Names names = {{"na", kNa}};
  EXPECT_EQ(evaluate("0 and na", names), 0.0);
  EXPECT_EQ(evaluate("1 or na", names), 1.0);
  EXPECT_EQ(evaluate("na and 1", names), kNa);
  EXPECT_EQ(evaluate("na and 0", names), kNa);
  EXPECT_EQ(evaluate("na or 1", names), kNa);
  EXPECT_EQ(evaluate("1 and na", names), kNa);
  EXPECT_EQ(evaluate("0 or na", names), kNa);
  // The skipped side is not even looked up.
  EXPECT_EQ(evaluate("0 and unknown_name"), 0.0);
  EXPECT_EQ(evaluate("2 or unknown_name"), 1.0);
}

TEST(Evaluate, BooleansAreOneAndZero) {
  EXPECT_EQ(evaluate("5 and 3"), 1.0);
  EXPECT_EQ(evaluate("0 or 7"), 1.0);
  EXPECT_EQ(evaluate("0 or 0"), 0.0);
  EXPECT_EQ(evaluate("(2 > 1) + (3 > 1) + (0 > 1)"), 2.0);
  EXPECT_EQ(evaluate("not 0.5"), 0.0);
  EXPECT_EQ(evaluate("-0.5 and 1"), 1.0);
}

TEST(Evaluate, ConditionalEvaluatesOnlyTheTakenBranch) {
  EXPECT_EQ(evaluate("1 if 1 else unknown_name"), 1.0);
  EXPECT_EQ(evaluate("unknown_name if 0 else 2"), 2.0);
  EXPECT_EQ(evaluate("a if c else b", {{"a", kNa}, {"b", 4.0}, {"c", 0.0}}), 4.0);
  EXPECT_EQ(evaluate("a if c else b", {{"a", 3.0}, {"b", 4.0}, {"c", kNa}}), kNa);
  EXPECT_EQ(evaluate("a if c else b", {{"a", 3.0}, {"b", 4.0}, {"c", 0.25}}), 3.0);
}

TEST(Evaluate, MinMaxAbs) {
  EXPECT_EQ(evaluate("min(3, -2, 5)"), -2.0);
  EXPECT_EQ(evaluate("max(3, -2, 5)"), 5.0);
  EXPECT_EQ(evaluate("max(-3, -2)"), -2.0);
  EXPECT_EQ(evaluate("abs(-2.5)"), 2.5);
}

TEST(Evaluate, NeverNaNOrInfinity) {
  constexpr double inf = std::numeric_limits<double>::infinity();
  const Names names = {{"nan", std::numeric_limits<double>::quiet_NaN()}, {"inf", inf}, {"big", 1e300}};
  EXPECT_EQ(evaluate("nan", names), kNa);
  EXPECT_EQ(evaluate("inf - inf", names), kNa);
  EXPECT_EQ(evaluate("min(inf, 1)", names), kNa);
  EXPECT_EQ(evaluate("big * big", names), kNa);
  EXPECT_EQ(evaluate("big / 1e-300", names), kNa);
  EXPECT_EQ(evaluate("d_ratio(big, 1e-300)", names), kNa);
  EXPECT_EQ(evaluate("big * big > 1", names), kNa);
  EXPECT_EQ(Expression::constant(std::numeric_limits<double>::quiet_NaN()).evaluate(testing::scope_of({})), kNa);
}

TEST(Evaluate, UnknownNamesInEvaluatedPartsReachTheCaller) {
  EXPECT_THROW(evaluate("1 + nothing"), Error);
  // Both operands are looked up even when one is n/a, so a bad name fails whatever the data.
  EXPECT_THROW(evaluate("na * nothing", {{"na", kNa}}), Error);
  EXPECT_THROW(evaluate("min(na, nothing)", {{"na", kNa}}), Error);
}

TEST(Evaluate, HaswellFrontendBoundFromCounts) {
  const auto core_clks = Expression::parse(
      "CPU_CLK_UNHALTED.THREAD / 2 * (1 + CPU_CLK_UNHALTED.ONE_THREAD_ACTIVE / CPU_CLK_UNHALTED.REF_XCLK) "
      "if ebs_mode else CPU_CLK_UNHALTED.THREAD_ANY / 2 if smt_enabled else CPU_CLK_UNHALTED.THREAD");
  const Names counts = {{"CPU_CLK_UNHALTED.THREAD", 1000.0},
                        {"CPU_CLK_UNHALTED.THREAD_ANY", 1800.0},
                        {"CPU_CLK_UNHALTED.ONE_THREAD_ACTIVE", 50.0},
                        {"CPU_CLK_UNHALTED.REF_XCLK", 100.0},
                        {"ebs_mode", 0.0},
                        {"smt_enabled", 1.0}};
  EXPECT_EQ(core_clks.evaluate(testing::scope_of(counts)), 900.0);
  Names ebs = counts;
  ebs["ebs_mode"] = 1.0;
  EXPECT_EQ(core_clks.evaluate(testing::scope_of(ebs)), 750.0);
  Names no_smt = counts;
  no_smt["smt_enabled"] = 0.0;
  EXPECT_EQ(core_clks.evaluate(testing::scope_of(no_smt)), 1000.0);
}

TEST(Evaluate, DefaultExpressionIsZero) {
  EXPECT_EQ(Expression().evaluate(testing::scope_of({})), 0.0);
  EXPECT_EQ(Expression::constant(2.5).evaluate(testing::scope_of({})), 2.5);
}

}  // namespace
}  // namespace topdown::expr
