#include <gtest/gtest.h>

#include <random>
#include <string>
#include <vector>

#include "support.h"

namespace topdown::expr {
namespace {

std::string canonical(std::string_view text) { return Expression::parse(text).to_string(); }

TEST(Print, MinimalParentheses) {
  EXPECT_EQ(canonical("((a)) + (b * c)"), "a + b * c");
  EXPECT_EQ(canonical("(a + b) * c"), "(a + b) * c");
  EXPECT_EQ(canonical("a - (b - c)"), "a - (b - c)");
  EXPECT_EQ(canonical("(a - b) - c"), "a - b - c");
  EXPECT_EQ(canonical("a + (b + c)"), "a + (b + c)");  // keeps the tree, not just the value
  EXPECT_EQ(canonical("a / (b * c)"), "a / (b * c)");
  EXPECT_EQ(canonical("-(a + b)"), "-(a + b)");
  EXPECT_EQ(canonical("- - a"), "--a");
  EXPECT_EQ(canonical("(a < b) == (c > d)"), "(a < b) == (c > d)");
  EXPECT_EQ(canonical("a + b < c * d"), "a + b < c * d");
  EXPECT_EQ(canonical("not (a and b)"), "not (a and b)");
  EXPECT_EQ(canonical("(not a) and b"), "not a and b");
  EXPECT_EQ(canonical("a or (b and c)"), "a or b and c");
  EXPECT_EQ(canonical("(a or b) and c"), "(a or b) and c");
  EXPECT_EQ(canonical("a and (b and c)"), "a and (b and c)");
  EXPECT_EQ(canonical("(x if c else y) + 1"), "(x if c else y) + 1");
  EXPECT_EQ(canonical("x if (c if d else e) else y"), "x if (c if d else e) else y");
  EXPECT_EQ(canonical("min((a if c else b), (1))"), "min(a if c else b, 1)");
  EXPECT_EQ(canonical("+a"), "a");
}

TEST(Print, CanonicalOperatorsAndNumbers) {
  EXPECT_EQ(canonical("a&&b || c | d & e"), "a and b or c or d and e");
  EXPECT_EQ(canonical("0x10 + 1e9 + 0.1 + 64 + 1.5e-7"), "16 + 1e+09 + 0.1 + 64 + 1.5e-07");
  EXPECT_EQ(Expression::constant(-2.5).to_string(), "-2.5");
  EXPECT_EQ(Expression().to_string(), "0");
}

TEST(Print, IdentifiersAreSpelledSoTheyReadBack) {
  EXPECT_EQ(canonical("msr@tsc@"), "msr/tsc/");
  EXPECT_EQ(canonical("cpu/event=0x1a0,umask=0x1,cmask=8/"), "cpu/event=0x1a0,umask=0x1,cmask=8/");
  EXPECT_EQ(canonical(R"(cpu@UOPS_EXECUTED.CORE\,cmask\=1@)"), "cpu/UOPS_EXECUTED.CORE,cmask=1/");
  EXPECT_EQ(canonical(R"(cstate_core@c6\-residency@)"), "cstate_core@c6-residency@");
  EXPECT_EQ(canonical(R"(cpu@a b@)"), "cpu@a b@");
  EXPECT_EQ(canonical(R"(x@a\@b\\c@)"), R"(x@a\@b\\c@)");
  // A PMU name that needs an escape cannot use the slash form: the lexer only
  // reads "pmu/terms/" after a plain name.
  EXPECT_EQ(canonical(R"(amd_\-x@0in@)"), R"(amd_\-x@0in@)");
  EXPECT_EQ(canonical(R"(topdown\-fe\-bound)"), R"(topdown\-fe\-bound)");
  EXPECT_EQ(canonical(R"(\if + \not_really)"), R"(\if + not_really)");
  EXPECT_EQ(canonical(R"(\1st)"), R"(\1st)");
  EXPECT_EQ(canonical("#smt_on"), "#smt_on");
  EXPECT_EQ(canonical(R"(\#)"), R"(\#)");
  EXPECT_EQ(canonical("interval-s"), "interval-s");
  EXPECT_EQ(canonical(R"(interval\-sx)"), R"(interval\-sx)");
  EXPECT_EQ(canonical(R"(a\/b)"), R"(a\/b)");
  EXPECT_EQ(canonical(R"(has_event(cycles\-t))"), R"(has_event(cycles\-t))");
  EXPECT_EQ(canonical("UOPS_EXECUTED.CORE:i1:c1"), "UOPS_EXECUTED.CORE:i1:c1");
}

// Everything a corpus formula prints must parse back to the same text and
// evaluate the same, on values that exercise both sides of its conditions.
void expect_round_trips(const std::vector<testing::Formula>& formulas) {
  std::mt19937 random(12345);
  std::uniform_int_distribution<int> choice(0, 9);
  std::uniform_real_distribution<double> magnitude(0.0, 1000.0);
  for (const auto& formula : formulas) {
    const auto original = Expression::parse(formula.text);
    const std::string text = original.to_string();
    const auto reparsed = Expression::parse(text);
    ASSERT_EQ(reparsed.to_string(), text) << formula.origin;
    ASSERT_EQ(reparsed.identifiers(), original.identifiers()) << formula.origin;
    for (int round = 0; round < 4; ++round) {
      testing::Names values;
      for (const auto& name : original.identifiers()) {
        const int pick = choice(random);
        values[name] = pick == 0 ? Value() : pick == 1 ? Value(0.0) : Value(magnitude(random));
      }
      const auto scope = testing::scope_of(values);
      EXPECT_EQ(reparsed.evaluate(scope), original.evaluate(scope)) << formula.origin << ": " << text;
    }
  }
}

TEST(Print, SeedFormulasRoundTrip) {
  if (!std::filesystem::exists(testing::shared_dir() / "seeds"))
    GTEST_SKIP() << "no seed documents next to the repository";
  expect_round_trips(testing::seed_formulas());
}

TEST(Print, PerfMetricsRoundTrip) {
  if (!std::filesystem::exists(testing::shared_dir() / "reference" / "perf-json")) {
    GTEST_SKIP() << "no perf metric JSON next to the repository";
  }
  expect_round_trips(testing::perf_formulas());
}

}  // namespace
}  // namespace topdown::expr
