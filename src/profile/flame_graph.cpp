#include "profile/flame_graph.h"

#include <algorithm>
#include <unordered_map>

#include "profile/stack_functions.h"

namespace topdown::profile {
namespace {

// Every stack merged from its outermost frame in: node 0 is the root, each
// other node a function called from its parent's, with the clockticks of
// the samples under it.
struct StackTree {
  std::vector<uint32_t> parent = {kNoFrame};
  std::vector<uint32_t> function = {kNoFrame};  // into StackFunctions::names()
  std::vector<double> clock = {0};
  std::vector<uint32_t> leaf_of_sample;
};

StackTree merge_stacks(const recording::Recording& recording, const StackFunctions& stacks) {
  StackTree tree;
  const std::vector<int> clock_slot = clock_slots(recording.header, clock_event(recording.header));
  std::unordered_map<uint64_t, uint32_t> child_of;  // (parent << 32 | function) -> node
  std::vector<uint32_t> on_stack;
  for (const recording::Sample& sample : recording.samples) {
    stacks.of(sample, on_stack);
    const int slot = clock_slot[sample.group];
    const double clock = slot < 0 ? 0 : static_cast<double>(recording.values[sample.first_value + slot]);
    uint32_t node = 0;
    tree.clock[0] += clock;
    for (auto function = on_stack.rbegin(); function != on_stack.rend(); ++function) {
      // A run of frames without names (a stack walked without frame
      // pointers) says no more than one.
      if (*function == stacks.unknown() && node != 0 && tree.function[node] == *function) continue;
      const uint64_t key = static_cast<uint64_t>(node) << 32 | *function;
      auto [entry, fresh] = child_of.try_emplace(key, static_cast<uint32_t>(tree.parent.size()));
      if (fresh) {
        tree.parent.push_back(node);
        tree.function.push_back(*function);
        tree.clock.push_back(0);
      }
      node = entry->second;
      tree.clock[node] += clock;
    }
    tree.leaf_of_sample.push_back(node);
  }
  return tree;
}

// The frames drawn: a node of the tree keeps its own frame unless it (or an
// ancestor) is under the least clockticks, when it joins its parent's
// [other] frame.
struct Frames {
  std::vector<FunctionName> names;
  std::vector<uint32_t> parent;
  std::vector<uint32_t> frame_of_node;
  size_t merged = 0;
};

Frames keep_frames(const StackTree& tree, const std::vector<FunctionName>& functions, double min_share) {
  Frames frames;
  frames.names.push_back({"[whole program]", "", {}});
  frames.parent.push_back(kNoFrame);
  frames.frame_of_node.assign(tree.parent.size(), 0);
  std::vector<bool> merged(tree.parent.size(), false);
  std::vector<uint32_t> other_of_frame = {kNoFrame};
  const double least = min_share * tree.clock[0];
  auto add_frame = [&](FunctionName name, uint32_t parent) {
    frames.names.push_back(std::move(name));
    frames.parent.push_back(parent);
    other_of_frame.push_back(kNoFrame);
    return static_cast<uint32_t>(frames.names.size() - 1);
  };
  for (uint32_t node = 1; node < tree.parent.size(); ++node) {
    const uint32_t parent = tree.parent[node];
    const uint32_t parent_frame = frames.frame_of_node[parent];
    if (merged[parent] || tree.clock[node] < least) {
      merged[node] = true;
      ++frames.merged;
      if (merged[parent]) {
        frames.frame_of_node[node] = parent_frame;
        continue;
      }
      if (other_of_frame[parent_frame] == kNoFrame) {
        other_of_frame[parent_frame] = add_frame({kOtherFrame, "", {}}, parent_frame);
      }
      frames.frame_of_node[node] = other_of_frame[parent_frame];
      continue;
    }
    const FunctionName& function = functions[tree.function[node]];
    frames.frame_of_node[node] = add_frame({function.name, function.module, {}}, parent_frame);
  }
  return frames;
}

}  // namespace

FlameGraph flame_graph(const recording::Recording& recording, const eval::Evaluator& evaluator,
                       const model::Dependencies& dependencies, Options options, double min_share) {
  const StackFunctions stacks(recording);
  const StackTree tree = merge_stacks(recording, stacks);
  Frames frames = keep_frames(tree, stacks.names(), min_share);

  std::size_t sample_number = 0;
  Attribution attribution =
      attribute_in_order(recording, frames.names, [&](const recording::Sample&, std::vector<uint32_t>& charged) {
        const uint32_t leaf = frames.frame_of_node[tree.leaf_of_sample[sample_number++]];
        for (uint32_t frame = leaf; frame != kNoFrame; frame = frames.parent[frame]) charged.push_back(frame);
      });
  options.sort_node.clear();
  std::vector<FunctionResult> results =
      analyse_functions(recording.header, std::move(attribution.functions), evaluator, dependencies, options);

  FlameGraph graph;
  graph.call_stacks = recording.header.call_graph != recording::CallGraph::None;
  graph.min_share = min_share;
  graph.merged = frames.merged;
  for (uint32_t f = 0; f < results.size(); ++f) {
    FlameFrame frame;
    frame.result = std::move(results[f]);
    frame.parent = frames.parent[f];
    if (frame.parent != kNoFrame) {
      frame.depth = graph.frames[frame.parent].depth + 1;
      graph.frames[frame.parent].children.push_back(f);
    }
    graph.frames.push_back(std::move(frame));
  }
  for (FlameFrame& frame : graph.frames) {
    std::stable_sort(frame.children.begin(), frame.children.end(), [&](uint32_t a, uint32_t b) {
      const Function& x = graph.frames[a].result.function;
      const Function& y = graph.frames[b].result.function;
      const bool x_other = x.name == kOtherFrame;
      const bool y_other = y.name == kOtherFrame;
      if (x_other != y_other) return y_other;
      return x.clock > y.clock;
    });
  }
  return graph;
}

}  // namespace topdown::profile
