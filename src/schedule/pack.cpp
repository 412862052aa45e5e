#include <algorithm>
#include <map>
#include <optional>
#include <set>

#include "counts/counts.h"
#include "schedule/counter_kind.h"
#include "schedule/plan.h"

namespace topdown::schedule {
namespace {

bool holds(const Group& group, const std::string& name) {
  return std::any_of(group.events.begin(), group.events.end(),
                     [&](const events::Encoding& event) { return event.name == name; });
}

// Adds the members `group` lacks, when they fit alongside its events.
bool try_add(Group& group, const std::vector<events::Encoding>& members, const CounterBudget& budget) {
  if (group.pmu != members.front().pmu) return false;
  std::vector<events::Encoding> candidate = group.events;
  for (const auto& member : members) {
    if (!holds(group, member.name)) candidate.push_back(member);
  }
  if (candidate.size() == group.events.size()) return true;
  if (!fits(candidate, budget)) return false;
  group.events = std::move(candidate);
  return true;
}

void place_alone(std::vector<Group>& groups, const events::Encoding& member, const CounterBudget& budget) {
  if (std::any_of(groups.begin(), groups.end(), [&](const Group& group) { return holds(group, member.name); })) return;
  for (Group& group : groups) {
    if (try_add(group, {member}, budget)) return;
  }
  Group fresh{member.pmu, {}, {}};
  if (try_add(fresh, {member}, budget)) {
    groups.push_back(std::move(fresh));
    return;
  }
  if (member.topdown_metric) {
    throw Error("event '" + member.name +
                "' is a PERF_METRICS field and counts only in a group led by TOPDOWN.SLOTS (fixed counter 3), "
                "which this plan lacks; use the model's general-counter formulas (--perf-metrics off)");
  }
  throw Error("event '" + member.name + "' cannot be counted: no counter of the " + std::to_string(budget.general) +
              " usable general counters accepts it; drop it or raise --counters if the health check was wrong");
}

// A cluster (the events of one node) goes whole into one group, if need be
// into a new one where it repeats events that other groups count too: a node
// computed from one group's counts compares counts of the same time slices.
// Only a cluster no group can hold is spread over groups, one event each.
// Groups of other PMUs do not rotate, so their events are never repeated.
void place(std::vector<Group>& groups, const std::vector<events::Encoding>& members, const CounterBudget& budget) {
  if (members.size() > 1) {
    for (Group& group : groups) {
      if (try_add(group, members, budget)) return;
    }
    Group fresh{members.front().pmu, {}, {}};
    if (is_core_pmu(fresh.pmu, budget) && try_add(fresh, members, budget)) {
      groups.push_back(std::move(fresh));
      return;
    }
  }
  for (const auto& member : members) place_alone(groups, member, budget);
}

// The repeated events of later groups are counted as their group's copies,
// so that their counts stay apart.
void mark_copies(std::vector<Group>& groups) {
  std::set<std::string, std::less<>> counted;
  for (size_t index = 0; index < groups.size(); ++index) {
    groups[index].copies.number = static_cast<int>(index + 1);
    for (const events::Encoding& event : groups[index].events) {
      if (!counted.insert(event.name).second) groups[index].copies.events.insert(event.name);
    }
  }
}

// The kernel accepts the PERF_METRICS fields only in a group that
// TOPDOWN.SLOTS leads.
void lead_with_slots(std::vector<events::Encoding>& events) {
  const bool has_metrics =
      std::any_of(events.begin(), events.end(), [](const events::Encoding& event) { return event.topdown_metric; });
  if (!has_metrics) return;
  auto slots = std::find_if(events.begin(), events.end(), is_slots);
  if (slots != events.end()) std::rotate(events.begin(), slots, slots + 1);
}

}  // namespace

std::vector<Group> pack(const std::vector<events::Encoding>& encodings, const std::vector<int>& together,
                        const CounterBudget& budget) {
  // The PERF_METRICS fields count only in TOPDOWN.SLOTS's group: they join
  // its cluster wherever they are used.
  std::optional<int> slots_cluster;
  for (size_t i = 0; i < encodings.size() && !slots_cluster; ++i) {
    if (is_slots(encodings[i])) slots_cluster = together.at(i);
  }
  // Clusters in order of first appearance, split by PMU since a group has one PMU.
  std::vector<std::pair<std::pair<int, std::string>, std::vector<events::Encoding>>> clusters;
  for (size_t i = 0; i < encodings.size(); ++i) {
    // TOPDOWN.SLOTS itself stays with the node that divides by it too.
    const bool with_slots = slots_cluster && encodings[i].topdown_metric;
    std::pair<int, std::string> key{with_slots ? *slots_cluster : together.at(i), encodings[i].pmu};
    auto it = std::find_if(clusters.begin(), clusters.end(), [&](const auto& c) { return c.first == key; });
    if (it == clusters.end()) {
      clusters.push_back({key, {}});
      it = std::prev(clusters.end());
    }
    auto& members = it->second;
    const bool listed = std::any_of(members.begin(), members.end(),
                                    [&](const events::Encoding& member) { return member.name == encodings[i].name; });
    if (!listed) members.push_back(encodings[i]);
  }
  std::vector<Group> groups;
  for (auto& cluster : clusters) {
    // A cluster too big for one group is placed event by event: its slots
    // first, so that the fields find their leader.
    lead_with_slots(cluster.second);
    place(groups, cluster.second, budget);
  }
  for (Group& group : groups) lead_with_slots(group.events);
  mark_copies(groups);
  return groups;
}

}  // namespace topdown::schedule
