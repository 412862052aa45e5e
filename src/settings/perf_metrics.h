#pragma once
// --perf-metrics off on a model that reads some of the chosen nodes from
// Intel's PERF_METRICS register only: the option would be ignored, so it is
// refused, naming the node and the field.
#include <string>
#include <vector>

#include "events/event.h"
#include "model/dependencies.h"
#include "model/model.h"
#include "settings/options.h"

namespace topdown::settings {

// Throws Error when `choice` is Off and a node of `nodes` (with `vars`, whose
// perf_metrics is then 0) still needs an event `resolver` knows as a
// PERF_METRICS field (Encoding::topdown_metric).
void check_perf_metrics_off(Toggle choice, const model::Model& model, const model::RunVariables& vars,
                            const std::vector<std::string>& nodes, const events::Resolver& resolver);

}  // namespace topdown::settings
