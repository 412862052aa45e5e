#include "settings/perf_metrics.h"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "common/error.h"
#include "model/dependencies.h"

namespace topdown::settings {
namespace {

// The PERF_METRICS fields `node` reads with `dependencies`.
std::vector<std::string> register_fields(const model::Dependencies& dependencies, const std::string& node,
                                         const events::Resolver& resolver) {
  std::vector<std::string> fields;
  for (const std::string& event : dependencies.events_of(node)) {
    if (resolver.knows(event) && resolver.resolve(event).topdown_metric) fields.push_back(event);
  }
  return fields;
}

void check_off(const model::Model& model, const model::RunVariables& vars, const std::vector<std::string>& nodes,
               const events::Resolver& resolver) {
  model::RunVariables without = vars;
  without.perf_metrics = false;
  const model::Dependencies dependencies(model, without);
  for (const std::string& node : nodes) {
    const std::vector<std::string> fields = register_fields(dependencies, node, resolver);
    if (fields.empty()) continue;
    const model::Node* read = model.find(node);
    const std::string shallower = read && read->level > 1 ? fmt::format(", or -l {}", read->level - 1) : "";
    throw Error(
        fmt::format("--perf-metrics off: model {} reads {} from Intel's PERF_METRICS register only ({}), with no "
                    "general-counter formula; leave out --perf-metrics off{}",
                    model.name, node, fmt::join(fields, ", "), shallower));
  }
}

void check_on(const model::Model& model, const model::RunVariables& vars, const std::vector<std::string>& nodes,
              const events::Resolver& resolver) {
  model::RunVariables with = vars;
  with.perf_metrics = true;
  const model::Dependencies dependencies(model, with);
  for (const std::string& node : nodes) {
    if (!register_fields(dependencies, node, resolver).empty()) return;
  }
  throw Error(fmt::format(
      "--perf-metrics on: model {} reads none of the nodes chosen from Intel's PERF_METRICS register (its CPU has "
      "none, or these nodes come from general counters only); leave out --perf-metrics on",
      model.name));
}

}  // namespace

void check_perf_metrics_choice(Toggle choice, const model::Model& model, const model::RunVariables& vars,
                               const std::vector<std::string>& nodes, const events::Resolver& resolver) {
  if (choice == Toggle::Off) check_off(model, vars, nodes, resolver);
  if (choice == Toggle::On) check_on(model, vars, nodes, resolver);
}

}  // namespace topdown::settings
