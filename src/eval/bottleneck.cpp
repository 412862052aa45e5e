#include "eval/bottleneck.h"

namespace topdown::eval {
namespace {

NodeResult* largest(std::vector<NodeResult>& nodes, bool (*eligible)(const NodeResult&, const std::string&),
                    const std::string& parent) {
  NodeResult* best = nullptr;
  for (NodeResult& r : nodes) {
    if (!r.value || !eligible(r, parent)) continue;
    if (!best || *r.value > *best->value) best = &r;
  }
  return best;
}

}  // namespace

void mark_bottleneck(std::vector<NodeResult>& nodes) {
  // With a level-1 value unknown, the largest level-1 node is unknown too.
  for (const NodeResult& r : nodes) {
    if (r.node->level == 1 && !r.value) return;
  }
  NodeResult* current = largest(
      nodes, [](const NodeResult& r, const std::string&) { return !r.node->is_info && r.node->level == 1; }, "");
  NodeResult* deepest = current;
  while (current) {
    current->on_bottleneck_path = true;
    deepest = current;
    current = largest(
        nodes,
        [](const NodeResult& r, const std::string& parent) { return r.node->parent == parent && r.over_threshold; },
        current->node->name);
  }
  if (deepest) deepest->bottleneck = true;
}

}  // namespace topdown::eval
