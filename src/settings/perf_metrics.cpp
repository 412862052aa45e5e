#include "settings/perf_metrics.h"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "common/error.h"
#include "model/dependencies.h"

namespace topdown::settings {

void check_perf_metrics_off(Toggle choice, const model::Model& model, const model::RunVariables& vars,
                            const std::vector<std::string>& nodes, const events::Resolver& resolver) {
  if (choice != Toggle::Off) return;
  const model::Dependencies dependencies(model, vars);
  for (const std::string& node : nodes) {
    std::vector<std::string> fields;
    for (const std::string& event : dependencies.events_of(node)) {
      if (resolver.knows(event) && resolver.resolve(event).topdown_metric) fields.push_back(event);
    }
    if (fields.empty()) continue;
    const model::Node* read = model.find(node);
    const std::string shallower = read && read->level > 1 ? fmt::format(", or -l {}", read->level - 1) : "";
    throw Error(
        fmt::format("--perf-metrics off: model {} reads {} from Intel's PERF_METRICS register only ({}), with no "
                    "general-counter formula; leave out --perf-metrics off{}",
                    model.name, node, fmt::join(fields, ", "), shallower));
  }
}

}  // namespace topdown::settings
