#include "profile/profile.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <set>

#include "common/error.h"
#include "common/strings.h"

namespace topdown::profile {
namespace {

bool holds(const recording::SampledGroup& group, const std::string& event) {
  return std::find(group.events.begin(), group.events.end(), event) != group.events.end();
}

std::map<std::string, uint64_t, std::less<>> samples_of_nodes(const Function& function, const recording::Header& header,
                                                              const model::Dependencies& dependencies,
                                                              const eval::Evaluator& evaluator,
                                                              const std::map<std::string, int, std::less<>>& groups) {
  std::map<std::string, uint64_t, std::less<>> samples;
  for (const auto& node : evaluator.nodes()) {
    auto chosen = groups.find(node);
    if (chosen != groups.end()) {
      for (size_t g = 0; g < header.groups.size(); ++g) {
        if (header.groups[g].copies.number == chosen->second) samples[node] = function.group_samples[g];
      }
      continue;
    }
    uint64_t fewest = function.samples;
    for (const auto& event : dependencies.events_of(node)) {
      uint64_t of_event = 0;
      bool recorded = false;
      for (size_t g = 0; g < header.groups.size(); ++g) {
        if (!holds(header.groups[g], event)) continue;
        recorded = true;
        of_event += function.group_samples[g];
      }
      if (recorded) fewest = std::min(fewest, of_event);
    }
    samples[node] = fewest;
  }
  return samples;
}

FunctionResult evaluate(Function function, const recording::Header& header, const model::Dependencies& dependencies,
                        const eval::Evaluator& evaluator, const std::map<std::string, int, std::less<>>& groups,
                        const Options& options, bool whole) {
  FunctionResult result;
  result.evaluation = evaluator.evaluate(function.counts);
  result.hot = whole || function.share >= options.min_share;
  result.node_samples = samples_of_nodes(function, header, dependencies, evaluator, groups);
  result.function = std::move(function);
  for (eval::NodeResult& node : result.evaluation.nodes) {
    if (result.node_samples[node.node->name] < options.min_samples) node.unreliable = true;
    if (!result.hot) {
      // The guide highlights an issue only where the function takes enough
      // of the clockticks: elsewhere the values stand, unflagged.
      node.over_threshold = false;
      node.bottleneck = false;
      node.on_bottleneck_path = false;
    }
  }
  return result;
}

// The deltas of `events` in each sample's group, by symbol.
Locate locate(const recording::Recording& recording, const model::Node& node, const std::string& clock_event,
              const model::Dependencies& dependencies, const Options& options) {
  Locate result;
  result.node = node.name;
  auto recorded_as = [&](const std::string& wanted) -> std::string {
    const std::string lower = lowercase(wanted);
    for (const auto& group : recording.header.groups) {
      for (const auto& event : group.events) {
        if (lowercase(event) == lower) return event;
      }
    }
    return "";
  };
  for (const auto& event : node.sample_events) {
    std::string name = recorded_as(event);
    if (!name.empty()) result.events.push_back(std::move(name));
  }
  result.sample_events = !result.events.empty();
  if (!result.sample_events && dependencies.formula(node.name).is_complement()) {
    result.not_located =
        "it is 1 minus other nodes, so their events say where it is not, and no sample event of its own was recorded";
    return result;
  }
  if (!result.sample_events) {
    // The clockticks alone say where the time goes (the functions' shares):
    // the node's other events say where its own cause lands.
    for (const auto& event : dependencies.events_of(node.name)) {
      std::string name = recorded_as(event);
      if (!name.empty() && name != clock_event) result.events.push_back(std::move(name));
    }
    if (result.events.empty() && !clock_event.empty()) result.events.push_back(clock_event);
  }
  // Which slots of each group hold a located event.
  std::vector<std::vector<size_t>> slots(recording.header.groups.size());
  for (size_t g = 0; g < slots.size(); ++g) {
    const auto& events = recording.header.groups[g].events;
    for (size_t i = 0; i < events.size(); ++i) {
      if (std::find(result.events.begin(), result.events.end(), events[i]) != result.events.end()) {
        slots[g].push_back(i);
      }
    }
  }
  std::vector<Hotspot> by_symbol(recording.symbols.size());
  double total = 0;
  for (const auto& sample : recording.samples) {
    if (sample.symbol >= by_symbol.size()) continue;
    double weight = 0;
    for (size_t slot : slots[sample.group]) weight += static_cast<double>(recording.values[sample.first_value + slot]);
    if (weight <= 0) continue;
    Hotspot& spot = by_symbol[sample.symbol];
    spot.symbol = sample.symbol;
    spot.weight += weight;
    ++spot.samples;
    total += weight;
  }
  std::vector<Hotspot> rows;
  for (const Hotspot& spot : by_symbol) {
    if (spot.samples > 0) rows.push_back(spot);
  }
  const size_t shown = std::min(rows.size(), options.locate_rows);
  std::partial_sort(rows.begin(), rows.begin() + static_cast<std::ptrdiff_t>(shown), rows.end(),
                    [](const Hotspot& a, const Hotspot& b) {
                      return a.weight != b.weight ? a.weight > b.weight : a.symbol < b.symbol;
                    });
  rows.resize(shown);
  for (Hotspot& row : rows) row.share = row.weight / total;
  result.rows = std::move(rows);
  return result;
}

// A function's slots in the node: its value times the function's clockticks
// (slots are a fixed number per cycle of one model); n/a sorts last.
double slots_in(const FunctionResult& result, const std::string& node) {
  const eval::NodeResult* found = result.evaluation.find(node);
  if (!found || !found->value) return -std::numeric_limits<double>::infinity();
  return *found->value * result.function.clock;
}

}  // namespace

std::map<std::string, int, std::less<>> node_groups(const recording::Header& header,
                                                    const model::Dependencies& dependencies,
                                                    const std::vector<std::string>& nodes) {
  std::map<std::string, int, std::less<>> groups;
  for (const auto& node : nodes) {
    const std::set<std::string>& events = dependencies.events_of(node);
    for (const auto& group : header.groups) {
      const bool all = std::all_of(events.begin(), events.end(), [&](const auto& e) { return holds(group, e); });
      const bool copies =
          std::any_of(events.begin(), events.end(), [&](const auto& e) { return group.copies.events.count(e) > 0; });
      if (all && copies) {
        groups[node] = group.copies.number;
        break;
      }
    }
  }
  return groups;
}

std::vector<FunctionResult> analyse_functions(const recording::Header& header, std::vector<Function> functions,
                                              const eval::Evaluator& evaluator, const model::Dependencies& dependencies,
                                              const Options& options) {
  const auto& nodes = evaluator.nodes();
  if (!options.sort_node.empty() && std::find(nodes.begin(), nodes.end(), options.sort_node) == nodes.end()) {
    throw Error("--sort " + options.sort_node + ": not a node of this report; name one it shows (-l or -v for more)");
  }
  const auto groups = node_groups(header, dependencies, nodes);
  std::vector<FunctionResult> results;
  for (Function& function : functions) {
    results.push_back(evaluate(std::move(function), header, dependencies, evaluator, groups, options, false));
  }
  if (!options.sort_node.empty()) {
    std::stable_sort(results.begin(), results.end(), [&](const FunctionResult& a, const FunctionResult& b) {
      return slots_in(a, options.sort_node) > slots_in(b, options.sort_node);
    });
  }
  return results;
}

Profile analyse(const recording::Recording& recording, Attribution attribution, const eval::Evaluator& evaluator,
                const model::Dependencies& dependencies, const Options& options) {
  const recording::Header& header = recording.header;
  Profile profile;
  profile.clock_event = attribution.clock_event;
  profile.functions = analyse_functions(header, std::move(attribution.functions), evaluator, dependencies, options);
  const auto groups = node_groups(header, dependencies, evaluator.nodes());
  profile.whole = evaluate(std::move(attribution.whole), header, dependencies, evaluator, groups, options, true);
  if (const eval::NodeResult* bottleneck = profile.whole.evaluation.bottleneck()) {
    profile.locate = locate(recording, *bottleneck->node, profile.clock_event, dependencies, options);
  }
  return profile;
}

}  // namespace topdown::profile
