#include <gtest/gtest.h>

#include <set>
#include <string>

#include "support.h"

namespace topdown::expr {
namespace {

using testing::evaluate;
using testing::Names;

struct Failure {
  SourceLocation where;
  std::string message;
};

Failure parse_failure(std::string_view text, const SourceLocation& where = {}) {
  try {
    Expression::parse(text, where);
  } catch (const ParseError& error) {
    return {error.where(), error.what()};
  }
  ADD_FAILURE() << "no error for '" << text << "'";
  return {};
}

TEST(Parser, ArithmeticPrecedence) {
  EXPECT_EQ(evaluate("1 + 2 * 3"), 7.0);
  EXPECT_EQ(evaluate("(1 + 2) * 3"), 9.0);
  EXPECT_EQ(evaluate("10 - 4 - 3"), 3.0);
  EXPECT_EQ(evaluate("64 / 4 / 2"), 8.0);
  EXPECT_EQ(evaluate("7 % 4 * 2"), 6.0);
  EXPECT_EQ(evaluate("2 + 3 * 4 - 6 / 2"), 11.0);
}

TEST(Parser, UnaryOperators) {
  EXPECT_EQ(evaluate("-2 * 3"), -6.0);
  EXPECT_EQ(evaluate("--2"), 2.0);
  EXPECT_EQ(evaluate("+2 - -3"), 5.0);
  EXPECT_EQ(evaluate("1 - -(2 + 3)"), 6.0);
  EXPECT_EQ(evaluate("-x", {{"x", 4.0}}), -4.0);
}

TEST(Parser, LogicBindsLooserThanComparisonAndArithmetic) {
  EXPECT_EQ(evaluate("2 * 3 > 5 and 1"), 1.0);
  EXPECT_EQ(evaluate("2 * 3 > 6 and 1"), 0.0);
  EXPECT_EQ(evaluate("1 or 0 and 0"), 1.0);  // "and" binds tighter
  EXPECT_EQ(evaluate("(1 or 0) and 0"), 0.0);
  EXPECT_EQ(evaluate("not 1 > 2"), 1.0);    // not (1 > 2)
  EXPECT_EQ(evaluate("not 0 and 0"), 0.0);  // (not 0) and 0
  EXPECT_EQ(evaluate("not not 3"), 1.0);
  EXPECT_EQ(evaluate("1 < 2 && 3 >= 3 || 0"), 1.0);
  EXPECT_EQ(evaluate("0.3 > 0.2 & (0.1 > 0.2 | 1 == 1)"), 1.0);  // perf's threshold spelling
  EXPECT_EQ(evaluate("1 + 1 == 2"), 1.0);
  EXPECT_EQ(evaluate("1 != 1"), 0.0);
  EXPECT_EQ(evaluate("2 <= 2"), 1.0);
}

TEST(Parser, ConditionalsChainToTheRight) {
  const std::string chain = "a if c1 else b if c2 else d";
  EXPECT_EQ(evaluate(chain, {{"a", 1.0}, {"b", 2.0}, {"d", 3.0}, {"c1", 1.0}, {"c2", 1.0}}), 1.0);
  EXPECT_EQ(evaluate(chain, {{"a", 1.0}, {"b", 2.0}, {"d", 3.0}, {"c1", 0.0}, {"c2", 1.0}}), 2.0);
  EXPECT_EQ(evaluate(chain, {{"a", 1.0}, {"b", 2.0}, {"d", 3.0}, {"c1", 0.0}, {"c2", 0.0}}), 3.0);
  // The condition and the taken value are whole or-expressions; the conditional binds loosest.
  EXPECT_EQ(evaluate("1 + 2 if 1 > 2 or 1 else 5"), 3.0);
  EXPECT_EQ(evaluate("10 * (1 if 0 else 2)"), 20.0);
  EXPECT_EQ(Expression::parse(chain).to_string(), chain);
  EXPECT_EQ(Expression::parse("(a if c1 else b) if c2 else d").to_string(), "(a if c1 else b) if c2 else d");
}

TEST(Parser, Functions) {
  EXPECT_EQ(evaluate("min(3, 1 + 1)"), 2.0);
  EXPECT_EQ(evaluate("max(3, 1 + 1, 7)"), 7.0);
  EXPECT_EQ(evaluate("abs(2 - 5)"), 3.0);
  EXPECT_EQ(evaluate("d_ratio(6, 3)"), 2.0);
  EXPECT_EQ(evaluate("d_ratio(6, 0)"), 0.0);
  EXPECT_EQ(evaluate("max((min(4, 9) - 1) / 3, 0)"), 1.0);
  EXPECT_EQ(evaluate("min(a if c else b, 5)", {{"a", 9.0}, {"b", 1.0}, {"c", 1.0}}), 5.0);
}

TEST(Parser, EventQueriesBecomeOneIdentifier) {
  const auto expression = Expression::parse(R"((cycles\-t / cycles if has_event(cycles\-t) else 0))");
  EXPECT_EQ(expression.identifiers(), (std::set<std::string>{"cycles", "cycles-t", "has_event(cycles-t)"}));
  EXPECT_EQ(Expression::parse("source_count(UNC_CHA_TOR_OCCUPANCY.IA_MISS_DRD) * #num_packages").identifiers(),
            (std::set<std::string>{"source_count(UNC_CHA_TOR_OCCUPANCY.IA_MISS_DRD)", "#num_packages"}));
  EXPECT_EQ(evaluate("has_event(msr@tsc@)", {{"has_event(msr/tsc/)", 1.0}}), 1.0);
}

TEST(Parser, IdentifiersKeepTheirFullNames) {
  const auto expression = Expression::parse(
      R"(UOPS_EXECUTED.CORE:i1:c1 / 2 + msr@tsc@ * cpu@INST_RETIRED.ANY@ - topdown\-fe\-bound + interval-s)");
  EXPECT_EQ(expression.identifiers(),
            (std::set<std::string>{"UOPS_EXECUTED.CORE:i1:c1", "msr/tsc/", "cpu/INST_RETIRED.ANY/", "topdown-fe-bound",
                                   "interval-s"}));
  EXPECT_EQ(evaluate("cpu/event=0x1a0,umask=0x1,cmask=8/ / 2", {{"cpu/event=0x1a0,umask=0x1,cmask=8/", 8.0}}), 4.0);
  EXPECT_EQ(evaluate("ls_not_halted_cyc/2", {{"ls_not_halted_cyc", 8.0}}), 4.0);
  EXPECT_EQ(evaluate("a-s", {{"a", 8.0}, {"s", 3.0}}), 5.0);
  // A function name without a call is an ordinary name.
  EXPECT_EQ(evaluate("min + 1", {{"min", 1.0}}), 2.0);
}

TEST(Parser, ErrorsSayWhatWasExpectedAndWhere) {
  const auto unclosed = parse_failure("(1 + 2");
  EXPECT_EQ(unclosed.message, "<input>:1:7: expected ')' but found end of formula");
  EXPECT_EQ(unclosed.where.column, 7);

  EXPECT_EQ(parse_failure("1 +").message, "<input>:1:4: expected a number, name or '(' but found end of formula");
  EXPECT_EQ(parse_failure("a b").message, "<input>:1:3: expected an operator or end of formula but found name 'b'");
  EXPECT_EQ(parse_failure("1 + )").message, "<input>:1:5: expected a number, name or '(' but found ')'");
  EXPECT_EQ(parse_failure("a if b").message, "<input>:1:7: expected 'else' but found end of formula");
  EXPECT_EQ(parse_failure("min(a b)").message, "<input>:1:7: expected ',' or ')' but found name 'b'");
  EXPECT_EQ(parse_failure("a < b < c").message, "<input>:1:7: expected 'and' between two comparisons but found '<'");
  EXPECT_EQ(parse_failure("min(1)").message, "<input>:1:1: min() takes at least 2 arguments but got 1");
  EXPECT_EQ(parse_failure("x + abs(1, 2)").message, "<input>:1:5: abs() takes 1 argument but got 2");
  EXPECT_EQ(parse_failure("d_ratio(1)").message, "<input>:1:1: d_ratio() takes 2 arguments but got 1");
  EXPECT_EQ(parse_failure("has_event(1)").message, "<input>:1:11: expected a name but found number 1");
  EXPECT_EQ(
      parse_failure("1 + EV(x)").message,
      "<input>:1:5: unknown function 'EV'; the functions are min, max, abs, d_ratio, has_event, source_count, over");
  EXPECT_EQ(parse_failure("").message, "<input>:1:1: expected a number, name or '(' but found end of formula");
}

TEST(Parser, ErrorLocationsAreRelativeToWhere) {
  const SourceLocation where{"zen5.model", 40, 5};
  const auto failure = parse_failure("a + * b", where);
  EXPECT_EQ(failure.where.file, "zen5.model");
  EXPECT_EQ(failure.where.line, 40);
  EXPECT_EQ(failure.where.column, 9);
  EXPECT_EQ(failure.message, "zen5.model:40:9: expected a number, name or '(' but found '*'");
  const auto second_line = parse_failure("a +\n   )", where);
  EXPECT_EQ(second_line.where.line, 41);
  EXPECT_EQ(second_line.where.column, 4);
}

TEST(Parser, HostileNestingIsAnErrorNotACrash) {
  EXPECT_NE(parse_failure(std::string(100000, '(') + "1").message.find("nests deeper"), std::string::npos);
  EXPECT_NE(parse_failure(std::string(100000, '-') + "1").message.find("nests deeper"), std::string::npos);
  std::string long_sum = "1";
  for (int i = 0; i < 5000; ++i) long_sum += " + 1";
  EXPECT_NE(parse_failure(long_sum).message.find("nested operations"), std::string::npos);
  std::string fine_sum = "1";
  for (int i = 0; i < 500; ++i) fine_sum += " + 1";
  EXPECT_EQ(evaluate(fine_sum), 501.0);
}

TEST(Parser, EverySeedFormulaParses) {
  if (!std::filesystem::exists(testing::shared_dir() / "seeds"))
    GTEST_SKIP() << "no seed documents next to the repository";
  const auto formulas = testing::seed_formulas();
  ASSERT_GT(formulas.size(), 300u);
  std::set<std::string> names;
  for (const auto& formula : formulas) {
    try {
      const auto expression = Expression::parse(formula.text);
      for (const auto& name : expression.identifiers()) names.insert(name);
    } catch (const ParseError& error) {
      ADD_FAILURE() << formula.origin << ": " << error.what() << "\n  " << formula.text;
    }
  }
  // The spellings the seed uses, read as single names.
  for (const std::string name : {"UOPS_EXECUTED.CORE:i1:c1", "BR_MISP_EXEC.ALL_BRANCHES:u0xE4", "msr/tsc/",
                                 "CPU_CLK_UNHALTED.THREAD_P:SUP", "BR_INST_RETIRED.FAR_BRANCH:USER", "interval-s",
                                 "OFFCORE_REQUESTS_OUTSTANDING.ALL_DATA_RD:c6", "smt_enabled"}) {
    EXPECT_TRUE(names.contains(name)) << name;
  }
  EXPECT_FALSE(names.contains("EV"));
  EXPECT_FALSE(names.contains("level"));
}

TEST(Parser, EveryPerfMetricParses) {
  if (!std::filesystem::exists(testing::shared_dir() / "reference" / "perf-json")) {
    GTEST_SKIP() << "no perf metric JSON next to the repository";
  }
  const auto formulas = testing::perf_formulas();
  ASSERT_GT(formulas.size(), 1000u);
  std::set<std::string> names;
  for (const auto& formula : formulas) {
    try {
      for (const auto& name : Expression::parse(formula.text).identifiers()) names.insert(name);
    } catch (const ParseError& error) {
      ADD_FAILURE() << formula.origin << ": " << error.what() << "\n  " << formula.text;
    }
  }
  for (const std::string name : {"msr/tsc/", "#SMT_on", "duration_time", "cpu/UOPS_EXECUTED.CORE,cmask=1/",
                                 "has_event(cycles-t)", "cstate_core/c6-residency/", "tma_info_thread_clks"}) {
    EXPECT_TRUE(names.contains(name)) << name;
  }
}

}  // namespace
}  // namespace topdown::expr
