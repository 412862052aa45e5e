#include "eval/evaluate.h"

#include <algorithm>
#include <cmath>
#include <map>

#include <fmt/format.h>

#include "eval/bottleneck.h"
#include "eval/sample_scope.h"

namespace topdown::eval {
namespace {

double counted_share_of(const std::set<std::string>& events, const SampleScope& scope) {
  double share = 1.0;
  for (const auto& event : events) {
    if (const counts::Count* count = scope.count_of(event)) share = std::min(share, count->running_share());
  }
  return share;
}

// One scope per counter group that nodes are computed from: a node's
// references to other nodes are then computed from the same group's counts.
class GroupScopes {
 public:
  GroupScopes(const model::Dependencies& deps, const counts::Sample& sample, const Options& options)
      : deps_(deps), sample_(sample), options_(options) {}

  const SampleScope& of(std::string_view node) {
    const auto group = options_.node_groups.find(node);
    const int index = group == options_.node_groups.end() ? 0 : group->second;
    auto it = scopes_.find(index);
    if (it == scopes_.end()) it = scopes_.try_emplace(index, deps_, sample_, options_.vars, index).first;
    return it->second;
  }

 private:
  const model::Dependencies& deps_;
  const counts::Sample& sample_;
  const Options& options_;
  std::map<int, SampleScope> scopes_;
};

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

void check_invalid_counts(const counts::Sample& sample, std::vector<std::string>& warnings) {
  for (const auto& [name, count] : sample.events) {
    if (count.valid()) continue;
    const std::string what = std::isfinite(count.value)
                                 ? fmt::format("the negative count {} (the counter went backwards between two reads)",
                                               count.value)
                                 : std::string("a count that is not a finite number (a sum that overflowed)");
    warnings.push_back("event " + name + " has " + what + "; values that use it are n/a");
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
  model::Dependencies deps(model, options.vars, options.identities, options.fallbacks);
  GroupScopes scopes(deps, sample, options);
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
    const SampleScope& scope = scopes.of(node->name);
    const auto& events = deps.events_of(node->name);
    for (const auto& event : events) {
      // Present but never on a counter (time_running 0) or not a valid count: as good as missing.
      const counts::Count* count = scope.count_of(event);
      if (!count || !count->scaled()) r.missing_events.push_back(event);
    }
    r.value = scope.node_value(node->name);
    r.approximate = r.value && scope.is_approximate(node->name);
    r.counted_share = counted_share_of(events, scope);
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
  check_invalid_counts(sample, result.warnings);
  mark_bottleneck(result.nodes);
  return result;
}

}  // namespace topdown::eval
