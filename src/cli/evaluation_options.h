#pragma once
// How a live run's samples are evaluated: with the run variables and the
// plan's identities and node groups (stat and serve alike).
#include "eval/evaluate.h"
#include "model/model.h"
#include "schedule/plan.h"

namespace topdown::cli {

inline eval::Options evaluation_options(const schedule::Plan& plan, const model::RunVariables& vars) {
  eval::Options options;
  options.vars = vars;
  options.identities = plan.identities;
  options.node_groups = plan.node_groups;
  options.uncountable_events = plan.uncountable_events;
  return options;
}

}  // namespace topdown::cli
