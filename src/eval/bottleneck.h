#pragma once
#include <cstddef>
#include <functional>
#include <vector>

#include "eval/evaluate.h"

namespace topdown::eval {

// The bottleneck path, as positions in `nodes`: start at the largest level-1
// node and keep stepping to the largest child that is over its threshold;
// the last node reached is the bottleneck. The largest level-1 node is where
// most slots went, so it is on the path even when under its threshold
// (nothing deeper stands out then). A node whose value is n/a, or that
// `usable` refuses (a reader that leaves it out), is unknown: it is never on
// the path, and while a level-1 node is unknown there is no path at all.
std::vector<size_t> bottleneck_path(const std::vector<NodeResult>& nodes,
                                    const std::function<bool(const NodeResult&)>& usable = {});

// Marks bottleneck_path() of every node: on_bottleneck_path, and bottleneck
// on its last node.
void mark_bottleneck(std::vector<NodeResult>& nodes);

}  // namespace topdown::eval
