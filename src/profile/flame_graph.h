#pragma once
// A TMA flame graph: the recording's call stacks merged from the outermost
// frame in (a run of unnamed frames as one [unknown]), each frame with the samples under it (the clockticks that make
// its width, and every event, so that its tree is evaluated as a function's
// is). Without call stacks the graph is one level: the functions the samples
// landed in.
#include <cstdint>
#include <limits>
#include <vector>

#include "profile/profile.h"

namespace topdown::profile {

// Frames under this share of the clockticks are merged into their parent's
// "[other]" frame: a page of thousands of slivers is neither readable nor small.
constexpr double kFlameMinShare = 0.001;

constexpr uint32_t kNoFrame = std::numeric_limits<uint32_t>::max();

struct FlameFrame {
  // The frame's function (Function::name "[whole program]" for the root,
  // kOtherFrame for merged frames) with the counts of every sample under it,
  // evaluated as analyse_functions() evaluates a function.
  FunctionResult result;
  uint32_t parent = kNoFrame;
  uint32_t depth = 0;              // the root's is 0
  std::vector<uint32_t> children;  // heaviest first, an [other] frame last
};

constexpr const char* kOtherFrame = "[other]";

struct FlameGraph {
  // Parents before their children; frames[0] is the root (every sample).
  std::vector<FlameFrame> frames;
  bool call_stacks = false;  // false: one level of the samples' own functions
  double min_share = kFlameMinShare;
  size_t merged = 0;  // frames merged into an [other] frame
};

// The flame graph of `recording` (named: name_samples), each frame
// evaluated with `evaluator` as the report's functions are. Frames under
// `min_share` of the clockticks are merged into an [other] frame of their
// parent. Options::sort_node is not used.
FlameGraph flame_graph(const recording::Recording& recording, const eval::Evaluator& evaluator,
                       const model::Dependencies& dependencies, Options options, double min_share = kFlameMinShare);

}  // namespace topdown::profile
