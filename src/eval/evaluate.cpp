#include "eval/evaluate.h"

#include <algorithm>
#include <cmath>

#include <fmt/format.h>

#include "eval/bottleneck.h"
#include "eval/sample_scope.h"

namespace topdown::eval {
namespace {

double counted_share_of(const std::set<std::string>& events, const counts::Sample& sample) {
  double share = 1.0;
  for (const auto& event : events) {
    if (const counts::Count* count = sample.find(event)) share = std::min(share, count->running_share());
  }
  return share;
}

void check_reference_events(const model::Model& model, const model::Dependencies& deps, const counts::Sample& sample,
                            std::vector<std::string>& warnings) {
  // Events in shared definitions (cycles, slots) are the denominators of many
  // nodes; one that reads 0 while it was counting points at a dead counter.
  std::set<std::string> reported;
  for (const auto& [name, unused] : model.definitions) {
    for (const auto& id : deps.definition(name)->identifiers()) {
      if (deps.kind_of(id) != model::Dependencies::Kind::Event || !reported.insert(id).second) continue;
      const counts::Count* count = sample.find(id);
      if (count && count->value == 0 && count->time_running > 0) {
        warnings.push_back("event " + id + " read 0 while it was counting: a dead counter or an event this CPU "
                           "does not count; values that divide by it are n/a");
      }
    }
  }
}

}  // namespace

bool is_fraction_domain(const model::Node& node) { return !node.is_info; }

const NodeResult* Evaluation::find(std::string_view name) const {
  auto it = std::find_if(nodes.begin(), nodes.end(), [&](const NodeResult& r) { return r.node->name == name; });
  return it == nodes.end() ? nullptr : &*it;
}

const NodeResult* Evaluation::bottleneck() const {
  auto it = std::find_if(nodes.begin(), nodes.end(), [](const NodeResult& r) { return r.bottleneck; });
  return it == nodes.end() ? nullptr : &*it;
}

Evaluation evaluate(const model::Model& model, const std::vector<std::string>& nodes, const counts::Sample& sample,
                    const Options& options) {
  model::Dependencies deps(model, options.vars, options.identities);
  SampleScope scope(deps, sample, options.vars);
  Evaluation result;
  for (const auto& [name, count] : sample.events) {
    result.counted_share = std::min(result.counted_share, count.running_share());
  }

  double level1_sum = 0;
  bool level1_complete = true;
  for (const std::string& name : nodes) {
    const model::Node* node = model.find(name);
    if (!node) throw Error("model " + model.name + " has no node '" + name + "'; see `topdown list`");
    NodeResult r;
    r.node = node;
    const auto& events = deps.events_of(node->name);
    for (const auto& event : events) {
      if (!sample.find(event)) r.missing_events.push_back(event);
    }
    r.value = scope.node_value(node->name);
    r.counted_share = counted_share_of(events, sample);
    r.multiplexed = r.counted_share < 1.0;
    r.unreliable = r.counted_share < options.min_counted_share;
    r.out_of_range = r.value && is_fraction_domain(*node) && (*r.value < 0 || *r.value > 1);
    r.over_threshold = scope.is_over(node->name);
    if (node->level == 1) {
      if (r.value) level1_sum += *r.value;
      else level1_complete = false;
    }
    result.nodes.push_back(std::move(r));
  }

  if (level1_complete && std::any_of(result.nodes.begin(), result.nodes.end(),
                                     [](const NodeResult& r) { return r.node->level == 1; })) {
    result.level1_sum = level1_sum;
    if (std::abs(level1_sum - 1) > options.level1_tolerance) {
      result.warnings.push_back(fmt::format("level 1 sums to {:.1f}%", level1_sum * 100) +
                                " instead of 100%: the counts are inconsistent (multiplexing, a dead counter or "
                                "a changing workload); treat every value as suspect");
    }
  }
  check_reference_events(model, deps, sample, result.warnings);
  mark_bottleneck(result.nodes);
  return result;
}

}  // namespace topdown::eval
