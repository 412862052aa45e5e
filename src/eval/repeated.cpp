#include <algorithm>
#include <cmath>

#include "eval/evaluate.h"
#include "stats/stats.h"

namespace topdown::eval {

Evaluation summarize_runs(const Evaluator& evaluator, const std::vector<Evaluation>& runs,
                          const counts::Sample& total) {
  const size_t nodes = evaluator.nodes().size();
  std::vector<expr::Value> means(nodes);
  std::vector<std::optional<Spread>> spreads(nodes);
  for (size_t i = 0; i < nodes; ++i) {
    std::vector<double> values;
    for (const Evaluation& run : runs) {
      if (run.nodes.at(i).value) values.push_back(*run.nodes[i].value);
    }
    if (values.empty()) continue;
    const stats::Summary summary = stats::summarize(values);
    means[i] = summary.mean;
    const auto [smallest, largest] = std::minmax_element(values.begin(), values.end());
    spreads[i] = Spread{summary.n, summary.stddev, summary.ci95_low(), summary.ci95_high(),
                        *largest - *smallest > std::abs(summary.mean)};
  }
  Evaluation result = evaluator.evaluate_with_values(total, means);
  for (size_t i = 0; i < nodes; ++i) result.nodes[i].spread = spreads[i];
  result.runs = static_cast<int>(runs.size());
  for (const Evaluation& run : runs) {
    for (const std::string& warning : run.warnings) {
      if (std::find(result.warnings.begin(), result.warnings.end(), warning) == result.warnings.end()) {
        result.warnings.push_back(warning);
      }
    }
  }
  return result;
}

}  // namespace topdown::eval
