#include <algorithm>
#include <map>

#include "schedule/plan.h"

namespace topdown::schedule {
namespace {

bool try_add(Group& group, const std::vector<events::Encoding>& members, const CounterBudget& budget) {
  if (group.pmu != members.front().pmu) return false;
  std::vector<events::Encoding> candidate = group.events;
  candidate.insert(candidate.end(), members.begin(), members.end());
  if (!fits(candidate, budget)) return false;
  group.events = std::move(candidate);
  return true;
}

void place(std::vector<Group>& groups, const std::vector<events::Encoding>& members, const CounterBudget& budget) {
  for (Group& group : groups) {
    if (try_add(group, members, budget)) return;
  }
  Group fresh{members.front().pmu, {}};
  if (try_add(fresh, members, budget)) {
    groups.push_back(std::move(fresh));
    return;
  }
  if (members.size() == 1) {
    throw Error("event '" + members.front().name + "' cannot be counted: no counter of the " +
                std::to_string(budget.general) +
                " usable general counters accepts it; drop it or raise --counters if the health check was wrong");
  }
  for (const auto& member : members) place(groups, {member}, budget);
}

}  // namespace

std::vector<Group> pack(const std::vector<events::Encoding>& encodings, const std::vector<int>& together,
                        const CounterBudget& budget) {
  // Clusters in order of first appearance, split by PMU since a group has one PMU.
  std::vector<std::pair<std::pair<int, std::string>, std::vector<events::Encoding>>> clusters;
  for (size_t i = 0; i < encodings.size(); ++i) {
    std::pair<int, std::string> key{together.at(i), encodings[i].pmu};
    auto it = std::find_if(clusters.begin(), clusters.end(), [&](const auto& c) { return c.first == key; });
    if (it == clusters.end()) {
      clusters.push_back({key, {}});
      it = std::prev(clusters.end());
    }
    it->second.push_back(encodings[i]);
  }
  std::vector<Group> groups;
  for (const auto& cluster : clusters) place(groups, cluster.second, budget);
  return groups;
}

}  // namespace topdown::schedule
