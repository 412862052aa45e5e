// The report reader of `topdown compare` on arbitrary bytes: a --json report
// (one object, or one per line) or a refusal that is one line naming the
// file; what it reads must be finite numbers with at least one measurement,
// and every rendering (text, CSV, JSON, the HTML page) must take it.
#include <cmath>
#include <cstdint>
#include <string_view>

#include "compare/compare.h"
#include "error_message.h"
#include "html/comparison.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace topdown;
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  try {
    const compare::SavedReport report = compare::read_report(text, "fuzz.json");
    for (const compare::Scope& scope : report.scopes) {
      for (const compare::Measure& measure : scope.measures) {
        if (measure.value && !std::isfinite(*measure.value)) __builtin_trap();
        if (!std::isfinite(measure.stddev)) __builtin_trap();
      }
    }
    // Compared with itself: every change 0 or n/a, never NaN.
    const compare::Comparison comparison = compare::compare(report, report, 0.05);
    for (const compare::ScopeChanges& scope : comparison.scopes) {
      for (const compare::Change& change : scope.changes) {
        if (change.change && !std::isfinite(*change.change)) __builtin_trap();
        if (change.p_value && !(*change.p_value >= 0 && *change.p_value <= 1)) __builtin_trap();
      }
    }
    (void)compare::render_text(comparison, {}, {});
    (void)compare::render_csv(comparison);
    (void)compare::render_json(comparison, {});
    (void)html::comparison_page(comparison, {});
  } catch (const Error& error) {
    fuzz::check_refusal(error, "fuzz.json");
  }
  return 0;
}
