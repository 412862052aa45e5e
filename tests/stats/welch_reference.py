#!/usr/bin/env python3
"""Reference values for tests/stats/stats_test.cpp, computed independently of
src/stats: means and standard deviations with Python's statistics module,
Student's t distribution by integrating its density numerically (Simpson's
rule), its quantile by bisection on that integral.

Input, one case a line: the values of sample A, a '|', the values of B.
Output, one line a case: mean_a sd_a ci95_a mean_b sd_b ci95_b t df p
(ci95: half the width of the 95% interval of the mean)."""
import math
import statistics
import sys


def density(x, df):
    log_norm = math.lgamma((df + 1) / 2) - math.lgamma(df / 2) - 0.5 * math.log(df * math.pi)
    return math.exp(log_norm - (df + 1) / 2 * math.log1p(x * x / df))


def central_mass(t, df, steps=4000):
    """P(-|t| < T < |t|) by Simpson's rule."""
    t = abs(t)
    h = t / steps
    total = density(0, df) + density(t, df)
    for i in range(1, steps):
        total += (4 if i % 2 else 2) * density(i * h, df)
    return 2 * total * h / 3


def quantile_975(df):
    low, high = 0.0, 64.0
    for _ in range(50):
        middle = (low + high) / 2
        if central_mass(middle, df) < 0.95:
            low = middle
        else:
            high = middle
    return (low + high) / 2


def summary(values):
    mean = statistics.mean(values)
    sd = statistics.stdev(values)
    return mean, sd, quantile_975(len(values) - 1) * sd / math.sqrt(len(values))


for line in sys.stdin:
    if not line.strip():
        continue
    left, right = line.split("|")
    a = [float(v) for v in left.split()]
    b = [float(v) for v in right.split()]
    mean_a, sd_a, ci_a = summary(a)
    mean_b, sd_b, ci_b = summary(b)
    var_a, var_b = sd_a ** 2 / len(a), sd_b ** 2 / len(b)
    t = (mean_b - mean_a) / math.sqrt(var_a + var_b)
    df = (var_a + var_b) ** 2 / (var_a ** 2 / (len(a) - 1) + var_b ** 2 / (len(b) - 1))
    p = 1 - central_mass(t, df)
    print(" ".join(repr(v) for v in (mean_a, sd_a, ci_a, mean_b, sd_b, ci_b, t, df, p)))
