#include "eval/bottleneck.h"

#include <optional>

namespace topdown::eval {

std::vector<size_t> bottleneck_path(const std::vector<NodeResult>& nodes,
                                    const std::function<bool(const NodeResult&)>& usable) {
  const auto known = [&](const NodeResult& r) { return r.value && (!usable || usable(r)); };
  // With a level-1 value unknown, the largest level-1 node is unknown too.
  for (const NodeResult& r : nodes) {
    if (!r.node->is_info && r.node->level == 1 && !known(r)) return {};
  }
  const auto largest = [&](const auto& eligible) {
    std::optional<size_t> best;
    for (size_t i = 0; i < nodes.size(); ++i) {
      if (!known(nodes[i]) || !eligible(nodes[i])) continue;
      if (!best || *nodes[i].value > *nodes[*best].value) best = i;
    }
    return best;
  };
  std::vector<size_t> path;
  std::optional<size_t> current = largest([](const NodeResult& r) { return !r.node->is_info && r.node->level == 1; });
  while (current) {
    path.push_back(*current);
    const std::string& parent = nodes[*current].node->name;
    current = largest([&](const NodeResult& r) { return r.node->parent == parent && r.over_threshold; });
  }
  return path;
}

void mark_bottleneck(std::vector<NodeResult>& nodes) {
  const std::vector<size_t> path = bottleneck_path(nodes);
  for (const size_t at : path) nodes[at].on_bottleneck_path = true;
  if (!path.empty()) nodes[path.back()].bottleneck = true;
}

}  // namespace topdown::eval
