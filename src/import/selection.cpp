#include <algorithm>
#include <memory>

#include "common/error.h"
#include "import/import.h"

namespace topdown::import {
namespace {

bool all_counted(const std::set<std::string>& events, const counts::Sample& sample) {
  return std::all_of(events.begin(), events.end(), [&](const std::string& event) { return sample.find(event); });
}

}  // namespace

model::IdentityChoice identities_for(const std::shared_ptr<const model::FoldedModel>& folded,
                                     const std::vector<std::string>& nodes, const counts::Sample& sample) {
  const model::Model& model = folded->model();
  model::IdentityChoice chosen;
  for (const auto& name : nodes) {
    const model::Node* node = model.find(name);
    if (!node || !node->identity) continue;
    if (all_counted(model::Dependencies(folded, chosen).events_of(name), sample)) continue;
    model::IdentityChoice trial = chosen;
    trial.insert(name);
    try {
      if (all_counted(model::Dependencies(folded, trial).events_of(name), sample)) chosen = std::move(trial);
    } catch (const Error&) {
      // The identity refers back to this node through others: keep the formula.
    }
  }
  return chosen;
}

FallbackChoice fallbacks_for(const std::shared_ptr<const model::FoldedModel>& folded,
                             const model::IdentityChoice& identities, const counts::Sample& sample) {
  const model::Model& model = folded->model();
  FallbackChoice chosen;
  for (const model::Node& node : model.nodes) {
    if (!node.fallback) continue;
    const std::set<std::string> events = model::Dependencies(folded, identities, chosen.nodes).events_of(node.name);
    if (all_counted(events, sample)) continue;
    model::FallbackChoice trial = chosen.nodes;
    trial.insert(node.name);
    try {
      if (!all_counted(model::Dependencies(folded, identities, trial).events_of(node.name), sample)) continue;
    } catch (const Error&) {
      continue;  // the fallback refers back to this node through others: keep the formula
    }
    chosen.nodes = std::move(trial);
    for (const std::string& event : events) {
      if (!sample.find(event)) chosen.missing_events.insert(event);
    }
  }
  return chosen;
}

std::vector<std::string> info_metrics_counted(const std::shared_ptr<const model::FoldedModel>& folded,
                                              const model::IdentityChoice& identities, const counts::Sample& sample) {
  const model::Dependencies deps(folded, identities);
  std::vector<std::string> metrics;
  for (const auto& node : folded->model().nodes) {
    if (node.is_info && all_counted(deps.events_of(node.name), sample)) metrics.push_back(node.name);
  }
  return metrics;
}

}  // namespace topdown::import
