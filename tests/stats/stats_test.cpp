#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>
#include <numbers>
#include <sstream>
#include <string>

#include "stats/stats.h"

namespace topdown::stats {
namespace {

// Student's t table (two-sided 95%: the 0.975 quantile), as printed in
// statistics textbooks.
TEST(Stats, TQuantilesMatchTheTable) {
  const std::pair<double, double> table[] = {{1, 12.706}, {2, 4.303},  {3, 3.182},  {4, 2.776},
                                             {9, 2.262},  {10, 2.228}, {30, 2.042}, {120, 1.980}};
  for (const auto& [df, t] : table) EXPECT_NEAR(student_t_quantile(0.975, df), t, 0.0006) << df;
  EXPECT_NEAR(student_t_quantile(0.95, 5), 2.015, 0.0006);
  EXPECT_NEAR(student_t_quantile(0.995, 10), 3.169, 0.0006);
  EXPECT_NEAR(student_t_quantile(0.025, 4), -2.776, 0.0006);
  EXPECT_DOUBLE_EQ(student_t_quantile(0.5, 7), 0);
}

TEST(Stats, TCdfHasClosedFormsForOneAndTwoDegrees) {
  // df 1 is Cauchy: 1/2 + atan(t)/pi; df 2: 1/2 + t / (2 sqrt(2 + t^2)).
  for (const double t : {-30.0, -2.5, -0.3, 0.0, 0.7, 4.0, 100.0}) {
    EXPECT_NEAR(student_t_cdf(t, 1), 0.5 + std::atan(t) / std::numbers::pi, 1e-13) << t;
    EXPECT_NEAR(student_t_cdf(t, 2), 0.5 + t / (2 * std::sqrt(2 + t * t)), 1e-13) << t;
  }
}

TEST(Stats, IncompleteBetaKnownValues) {
  EXPECT_NEAR(regularized_incomplete_beta(1, 1, 0.3), 0.3, 1e-14);     // uniform
  EXPECT_NEAR(regularized_incomplete_beta(2, 3, 0.4), 0.5248, 1e-12);  // 1 - sum of binomials
  EXPECT_NEAR(regularized_incomplete_beta(5, 0.5, 0.9) + regularized_incomplete_beta(0.5, 5, 0.1), 1, 1e-13);
  EXPECT_EQ(regularized_incomplete_beta(3, 4, 0), 0);
  EXPECT_EQ(regularized_incomplete_beta(3, 4, 1), 1);
}

// A worked example with the numbers written out: A = 1, 2, 3 (mean 2, sd
// 1), B = 4, 6, 8 (mean 6, sd 2): standard error sqrt(1/3 + 4/3) =
// sqrt(5/3), t = 4 / sqrt(5/3) = 3.0984, Welch's df = (5/3)^2 / ((1/3)^2/2 +
// (4/3)^2/2) = 2.9412; intervals 2 +- 4.303/sqrt(3) and 6 +- 2*4.303/sqrt(3).
TEST(Stats, WorkedWelchExample) {
  const Summary a = summarize({1, 2, 3});
  const Summary b = summarize({4, 6, 8});
  EXPECT_DOUBLE_EQ(a.mean, 2);
  EXPECT_DOUBLE_EQ(a.stddev, 1);
  EXPECT_NEAR(*a.ci95_half_width, 4.302653 / std::sqrt(3), 1e-6);
  EXPECT_NEAR(*b.ci95_half_width, 2 * 4.302653 / std::sqrt(3), 1e-6);
  const auto test = welch_test(a, b);
  ASSERT_TRUE(test);
  EXPECT_NEAR(test->t, 4 / std::sqrt(5.0 / 3), 1e-12);
  EXPECT_NEAR(test->df, (25.0 / 9) / ((1.0 / 9) / 2 + (16.0 / 9) / 2), 1e-12);
  EXPECT_GT(test->p, 0.05);  // 3.10 with 2.94 df: just short of the 3.18 that 3 df need
  EXPECT_LT(test->p, 0.06);
}

TEST(Stats, OneValueHasNoIntervalAndNoTest) {
  const Summary one = summarize({0.42});
  EXPECT_EQ(one.n, 1);
  EXPECT_DOUBLE_EQ(one.mean, 0.42);
  EXPECT_DOUBLE_EQ(one.stddev, 0);
  EXPECT_FALSE(one.ci95_half_width);
  EXPECT_FALSE(welch_test(one, summarize({1, 2})));
  EXPECT_EQ(summarize({}).n, 0);
}

TEST(Stats, NoSpreadOnEitherSide) {
  EXPECT_DOUBLE_EQ(welch_test(summarize({3, 3}), summarize({3, 3, 3}))->p, 1);
  EXPECT_DOUBLE_EQ(welch_test(summarize({3, 3}), summarize({4, 4}))->p, 0);
}

// Against tests/stats/welch_reference.py (statistics module and a numerical
// integral of the t density): equal sizes, N = 2, unequal variances and
// sizes, no difference and a clear one.
TEST(Stats, MatchesAnIndependentReference) {
  const std::vector<std::pair<std::vector<double>, std::vector<double>>> cases = {
      {{0.412, 0.398}, {0.455, 0.471}},                                     // N = 2
      {{0.30, 0.31, 0.29, 0.30, 0.32}, {0.30, 0.29, 0.31, 0.30, 0.31}},     // no real change
      {{10.1, 9.8, 10.3, 10.0, 9.9}, {12.5, 8.1, 14.2, 6.9, 11.8, 13.3}},   // unequal variances and sizes
      {{0.251, 0.249, 0.250}, {0.262, 0.259, 0.261, 0.263, 0.260, 0.258}},  // small but clear
      {{1e9, 1.02e9, 0.99e9, 1.01e9}, {1.5e9, 1.2e9}},                      // large values, N = 2
  };
  const std::string input_path = ::testing::TempDir() + "/welch_cases.txt";
  {
    FILE* input = std::fopen(input_path.c_str(), "w");
    ASSERT_NE(input, nullptr);
    for (const auto& [a, b] : cases) {
      for (double v : a) std::fprintf(input, "%.17g ", v);
      std::fprintf(input, "|");
      for (double v : b) std::fprintf(input, " %.17g", v);
      std::fprintf(input, "\n");
    }
    std::fclose(input);
  }
  const std::string command = "python3 " TOPDOWN_SOURCE_DIR "/tests/stats/welch_reference.py < " + input_path;
  FILE* pipe = popen(command.c_str(), "r");
  ASSERT_NE(pipe, nullptr);
  std::string output;
  char buffer[4096];
  while (size_t got = std::fread(buffer, 1, sizeof buffer, pipe)) output.append(buffer, got);
  ASSERT_EQ(pclose(pipe), 0) << output;
  std::istringstream lines(output);
  for (const auto& [a_values, b_values] : cases) {
    double mean_a, sd_a, ci_a, mean_b, sd_b, ci_b, t, df, p;
    ASSERT_TRUE(lines >> mean_a >> sd_a >> ci_a >> mean_b >> sd_b >> ci_b >> t >> df >> p) << output;
    const Summary a = summarize(a_values);
    const Summary b = summarize(b_values);
    const auto test = welch_test(a, b);
    ASSERT_TRUE(test);
    auto near = [](double ours, double reference) {
      EXPECT_NEAR(ours, reference, 1e-9 * std::max(1.0, std::abs(reference)));
    };
    near(a.mean, mean_a);
    near(a.stddev, sd_a);
    near(*a.ci95_half_width, ci_a);
    near(b.mean, mean_b);
    near(b.stddev, sd_b);
    near(*b.ci95_half_width, ci_b);
    near(test->t, t);
    near(test->df, df);
    EXPECT_NEAR(test->p, p, 1e-8);
  }
}

}  // namespace
}  // namespace topdown::stats
