#pragma once
// What a session counts and how a region's totals become the nodes of the
// TopDown tree: a CPU's model evaluated by the eval stage, or Intel's
// PERF_METRICS decoded directly.
#include <memory>
#include <string>
#include <vector>

#include "model/dependencies.h"
#include "model/model.h"
#include "region/snapshot.h"
#include "topdown/region.hpp"

namespace topdown::region {

class Method {
 public:
  virtual ~Method() = default;
  // Fills the nodes, slots, counted share and warnings of `result` from the
  // region's totals.
  virtual void evaluate(const Totals& totals, RegionResult& result) const = 0;
};

// Evaluates `nodes` of `model` with the eval stage, as `topdown stat` does,
// from deltas of `events` (the group's events, leader first, named as the
// model names them).
std::unique_ptr<Method> make_model_method(model::Model model, std::vector<std::string> nodes,
                                          std::vector<std::string> events, model::RunVariables vars,
                                          model::IdentityChoice identities);

// Decodes PERF_METRICS totals (slots, then each field's slots x 0xff).
std::unique_ptr<Method> make_metrics_method(int level);

}  // namespace topdown::region
