#pragma once
// The statistics of repeated runs: a sample's mean, standard deviation and
// 95% interval (Student's t), and Welch's t-test of two samples with unequal
// variances. Pure functions of numbers, tested against independently
// computed values (tests/stats).
#include <optional>
#include <vector>

namespace topdown::stats {

// I_x(a, b), the regularized incomplete beta function, for a, b > 0 and x in
// [0, 1]: by its continued fraction (modified Lentz), on the side of x where
// it converges fast.
double regularized_incomplete_beta(double a, double b, double x);

// P(T <= t) for Student's t distribution with `df` > 0 degrees of freedom
// (df need not be whole: Welch's is not).
double student_t_cdf(double t, double df);

// The t with P(T <= t) = p, for p in (0, 1).
double student_t_quantile(double p, double df);

struct Summary {
  int n = 0;
  double mean = 0;
  double stddev = 0;  // sample standard deviation (n - 1); 0 for one value
  // Half the width of the 95% confidence interval of the mean,
  // t(0.975, n - 1) * stddev / sqrt(n); nullopt for one value.
  std::optional<double> ci95_half_width;

  double ci95_low() const { return mean - ci95_half_width.value_or(0); }
  double ci95_high() const { return mean + ci95_half_width.value_or(0); }
};

// Of one value or more (an empty list gives n 0).
Summary summarize(const std::vector<double>& values);

struct WelchTest {
  double t = 0;   // (mean of b - mean of a) / its standard error
  double df = 0;  // Welch-Satterthwaite degrees of freedom
  double p = 1;   // two-sided p-value
};

// Welch's t-test of the means of two samples of 2 values or more each;
// nullopt when either has fewer. When both samples have no spread, the means
// are equal (p 1) or differ without doubt (p 0).
std::optional<WelchTest> welch_test(const Summary& a, const Summary& b);

}  // namespace topdown::stats
