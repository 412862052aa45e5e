#pragma once
#include <vector>

#include "eval/evaluate.h"

namespace topdown::eval {

// Marks the bottleneck: start at the largest level-1 node and keep stepping
// to the largest child that is over its threshold; the last node reached is
// the bottleneck. The largest level-1 node is where most slots went, so it is
// marked even when under its threshold (nothing deeper stands out then).
// No bottleneck is marked while any level-1 value is n/a.
void mark_bottleneck(std::vector<NodeResult>& nodes);

}  // namespace topdown::eval
