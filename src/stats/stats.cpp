#include "stats/stats.h"

#include <cmath>
#include <limits>
#include <numeric>

namespace topdown::stats {
namespace {

// The continued fraction of I_x(a, b) without its prefactor, evaluated with
// the modified Lentz method: each step multiplies the value by C/D, where C
// and D follow the numerators of the fraction's terms.
double beta_continued_fraction(double a, double b, double x) {
  constexpr double kTiny = 1e-300;  // keeps the Lentz quotients away from 0
  constexpr double kEpsilon = 1e-15;
  constexpr int kMaxTerms = 1000;
  double c = 1;
  double d = 1 - (a + b) * x / (a + 1);
  if (std::abs(d) < kTiny) d = kTiny;
  d = 1 / d;
  double value = d;
  for (int m = 1; m <= kMaxTerms; ++m) {
    // Two terms per m: the even one, d_{2m}, then the odd one, d_{2m+1}.
    const double even = m * (b - m) * x / ((a + 2 * m - 1) * (a + 2 * m));
    const double odd = -(a + m) * (a + b + m) * x / ((a + 2 * m) * (a + 2 * m + 1));
    double step = 1;
    for (const double numerator : {even, odd}) {
      d = 1 + numerator * d;
      if (std::abs(d) < kTiny) d = kTiny;
      c = 1 + numerator / c;
      if (std::abs(c) < kTiny) c = kTiny;
      d = 1 / d;
      step = c * d;
      value *= step;
    }
    if (std::abs(step - 1) < kEpsilon) return value;
  }
  return value;
}

}  // namespace

double regularized_incomplete_beta(double a, double b, double x) {
  if (x <= 0) return 0;
  if (x >= 1) return 1;
  const double log_prefactor =
      a * std::log(x) + b * std::log1p(-x) + std::lgamma(a + b) - std::lgamma(a) - std::lgamma(b);
  const double prefactor = std::exp(log_prefactor);
  // The fraction converges fast below the mean of the beta distribution;
  // above it, use I_x(a, b) = 1 - I_{1-x}(b, a).
  if (x < (a + 1) / (a + b + 2)) return prefactor * beta_continued_fraction(a, b, x) / a;
  return 1 - prefactor * beta_continued_fraction(b, a, 1 - x) / b;
}

double student_t_cdf(double t, double df) {
  // P(|T| > |t|) = I_{df/(df+t^2)}(df/2, 1/2).
  const double both_tails = regularized_incomplete_beta(df / 2, 0.5, df / (df + t * t));
  return t > 0 ? 1 - both_tails / 2 : both_tails / 2;
}

double student_t_quantile(double p, double df) {
  if (p == 0.5) return 0;
  if (p < 0.5) return -student_t_quantile(1 - p, df);
  // The CDF rises monotonically: bracket the quantile, then halve the bracket.
  double low = 0;
  double high = 1;
  while (student_t_cdf(high, df) < p) {
    low = high;
    high *= 2;
  }
  for (int step = 0; step < 200 && high - low > 1e-13 * high; ++step) {
    const double middle = (low + high) / 2;
    (student_t_cdf(middle, df) < p ? low : high) = middle;
  }
  return (low + high) / 2;
}

Summary summarize(const std::vector<double>& values) {
  Summary summary;
  summary.n = static_cast<int>(values.size());
  if (values.empty()) return summary;
  summary.mean = std::accumulate(values.begin(), values.end(), 0.0) / summary.n;
  if (summary.n < 2) return summary;
  double squares = 0;
  for (const double value : values) squares += (value - summary.mean) * (value - summary.mean);
  summary.stddev = std::sqrt(squares / (summary.n - 1));
  summary.ci95_half_width = student_t_quantile(0.975, summary.n - 1) * summary.stddev / std::sqrt(summary.n);
  return summary;
}

std::optional<WelchTest> welch_test(const Summary& a, const Summary& b) {
  if (a.n < 2 || b.n < 2) return std::nullopt;
  const double var_a = a.stddev * a.stddev / a.n;
  const double var_b = b.stddev * b.stddev / b.n;
  const double variance = var_a + var_b;
  WelchTest test;
  if (variance == 0) {
    test.df = a.n + b.n - 2;
    const bool equal = a.mean == b.mean;
    test.t = equal ? 0 : std::copysign(std::numeric_limits<double>::infinity(), b.mean - a.mean);
    test.p = equal ? 1 : 0;
    return test;
  }
  test.t = (b.mean - a.mean) / std::sqrt(variance);
  test.df = variance * variance / (var_a * var_a / (a.n - 1) + var_b * var_b / (b.n - 1));
  test.p = 2 * student_t_cdf(-std::abs(test.t), test.df);
  return test;
}

}  // namespace topdown::stats
