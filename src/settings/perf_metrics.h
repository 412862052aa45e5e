#pragma once
// --perf-metrics on|off where the model cannot honour it: off on a model that
// reads some of the chosen nodes from Intel's PERF_METRICS register only, on
// on a model that reads none of them from it (a CPU without the register).
// Either would be ignored, so it is refused with the reason.
#include <string>
#include <vector>

#include "events/event.h"
#include "model/dependencies.h"
#include "model/model.h"
#include "settings/options.h"

namespace topdown::settings {

// Throws Error when `choice` is Off and a node of `nodes` (with `vars`, whose
// perf_metrics is then 0) still needs an event `resolver` knows as a
// PERF_METRICS field (Encoding::topdown_metric), or when `choice` is On and
// no node of `nodes` (with perf_metrics 1) needs one.
void check_perf_metrics_choice(Toggle choice, const model::Model& model, const model::RunVariables& vars,
                               const std::vector<std::string>& nodes, const events::Resolver& resolver);

}  // namespace topdown::settings
