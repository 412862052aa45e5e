// The flame graph of named call stacks built here with known cpu-clock and
// page-fault deltas per stack, evaluated with the software sampling model
// (Faulting = page-faults * 1000 ns / cpu-clock).
#include "profile/flame_graph.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <memory>

namespace topdown::profile {
namespace {

const std::filesystem::path kSource = TOPDOWN_SOURCE_DIR;

class FlameGraphs : public ::testing::Test {
 protected:
  FlameGraphs()
      : model_(model::load_model(kSource / "tests/data/software_sampling.model")),
        folded_(std::make_shared<model::FoldedModel>(model_, model::RunVariables{})),
        dependencies_(folded_) {
    recording::SampledGroup group;
    group.events = {"cpu-clock", "page-faults"};
    recording_.header.groups.push_back(group);
    recording_.header.call_graph = recording::CallGraph::PerfScript;
  }

  // A sample whose stack is `stack`, innermost function first (its first
  // frame named).
  void add(const std::vector<std::string>& stack, uint64_t clock, uint64_t faults = 0) {
    recording::Sample sample;
    sample.time = recording_.samples.size();
    sample.first_value = static_cast<uint32_t>(recording_.values.size());
    recording_.values.push_back(clock);
    recording_.values.push_back(faults);
    sample.first_frame = static_cast<uint32_t>(recording_.frames.symbols.size());
    sample.user_frames = static_cast<uint16_t>(stack.size());
    for (const std::string& function : stack) {
      recording_.frames.addresses.push_back(0x1000 + recording_.frames.addresses.size());
      // "[unknown]": a frame the file could not name.
      recording_.frames.symbols.push_back(function == "[unknown]" ? recording::kNoSymbol : symbol(function));
    }
    sample.symbol = symbol(stack.front());
    recording_.samples.push_back(sample);
  }

  FlameGraph graph(double min_share = kFlameMinShare) {
    const eval::Evaluator evaluator(folded_, {"Faulting", "Computing"}, {});
    return flame_graph(recording_, evaluator, dependencies_, {}, min_share);
  }

  // The frame reached from the root through `path` (outermost first).
  static const FlameFrame* at(const FlameGraph& graph, const std::vector<std::string>& path) {
    uint32_t frame = 0;
    for (const std::string& name : path) {
      uint32_t next = kNoFrame;
      for (uint32_t child : graph.frames[frame].children) {
        if (graph.frames[child].result.function.name == name) next = child;
      }
      if (next == kNoFrame) return nullptr;
      frame = next;
    }
    return &graph.frames[frame];
  }

  static double faulting(const FlameFrame& frame) {
    const eval::NodeResult* node = frame.result.evaluation.find("Faulting");
    return node && node->value ? *node->value : -1;
  }

  uint32_t symbol(const std::string& function) {
    for (uint32_t i = 0; i < recording_.symbols.size(); ++i) {
      if (recording_.symbols[i].function == function) return i;
    }
    recording_.symbols.push_back({function, "/bin/app", "", 0, {}});
    return static_cast<uint32_t>(recording_.symbols.size() - 1);
  }

  model::Model model_;
  std::shared_ptr<const model::FoldedModel> folded_;
  model::Dependencies dependencies_;
  recording::Recording recording_;
};

TEST_F(FlameGraphs, StacksMergeFromTheOutermostFrameAndWidthsAddUp) {
  add({"leaf", "outer_a", "main"}, 100);
  add({"leaf", "outer_b", "main"}, 300);
  add({"outer_a", "main"}, 50);
  add({"leaf", "outer_b", "main"}, 40);
  const FlameGraph flame = graph();
  EXPECT_TRUE(flame.call_stacks);
  EXPECT_EQ(flame.merged, 0u);
  // root, main, outer_a, outer_b, leaf under each outer.
  ASSERT_EQ(flame.frames.size(), 6u);
  EXPECT_EQ(flame.frames[0].result.function.name, "[whole program]");
  EXPECT_DOUBLE_EQ(flame.frames[0].result.function.clock, 490);
  ASSERT_NE(at(flame, {"main"}), nullptr);
  EXPECT_DOUBLE_EQ(at(flame, {"main"})->result.function.clock, 490);
  EXPECT_DOUBLE_EQ(at(flame, {"main"})->result.function.share, 1.0);
  EXPECT_DOUBLE_EQ(at(flame, {"main", "outer_a"})->result.function.clock, 150);
  EXPECT_DOUBLE_EQ(at(flame, {"main", "outer_b"})->result.function.clock, 340);
  EXPECT_DOUBLE_EQ(at(flame, {"main", "outer_a", "leaf"})->result.function.clock, 100);
  EXPECT_EQ(at(flame, {"main", "outer_b", "leaf"})->result.function.samples, 2u);
  EXPECT_EQ(at(flame, {"main", "outer_b", "leaf"})->depth, 3u);
  // A frame is at least as wide as its children together: the rest is its own.
  for (const FlameFrame& frame : flame.frames) {
    double children = 0;
    for (uint32_t child : frame.children) children += flame.frames[child].result.function.clock;
    EXPECT_LE(children, frame.result.function.clock) << frame.result.function.name;
  }
  EXPECT_DOUBLE_EQ(flame.frames[at(flame, {"main"})->children.front()].result.function.clock, 340)
      << "heaviest child first";
}

TEST_F(FlameGraphs, RecursionIsAFrameForEachCall) {
  add({"rec", "rec", "rec", "main"}, 60);
  add({"rec", "main"}, 20);
  const FlameGraph flame = graph();
  ASSERT_NE(at(flame, {"main", "rec", "rec", "rec"}), nullptr);
  EXPECT_DOUBLE_EQ(at(flame, {"main", "rec"})->result.function.clock, 80);
  EXPECT_DOUBLE_EQ(at(flame, {"main", "rec", "rec"})->result.function.clock, 60);
  EXPECT_DOUBLE_EQ(at(flame, {"main", "rec", "rec", "rec"})->result.function.clock, 60);
  EXPECT_TRUE(at(flame, {"main", "rec", "rec", "rec"})->children.empty());
}

TEST_F(FlameGraphs, ARunOfUnnamedFramesIsOneFrame) {
  add({"leaf", "[unknown]", "[unknown]", "[unknown]", "main"}, 60);
  add({"[unknown]", "main"}, 20);
  const FlameGraph flame = graph();
  ASSERT_NE(at(flame, {"main", "[unknown]", "leaf"}), nullptr);
  EXPECT_DOUBLE_EQ(at(flame, {"main", "[unknown]"})->result.function.clock, 80);
  EXPECT_EQ(at(flame, {"main", "[unknown]", "[unknown]"}), nullptr);
}

TEST_F(FlameGraphs, AFramesTreeIsEvaluatedFromTheSamplesUnderIt) {
  add({"leaf", "outer_a", "main"}, 10000, 2);  // 2 faults of 1000 ns in 10000 ns
  add({"leaf", "outer_b", "main"}, 30000, 3);
  add({"outer_a", "main"}, 10000, 8);
  const FlameGraph flame = graph();
  EXPECT_DOUBLE_EQ(faulting(*at(flame, {"main", "outer_a", "leaf"})), 2 * 1000.0 / 10000);
  EXPECT_DOUBLE_EQ(faulting(*at(flame, {"main", "outer_a"})), (2 + 8) * 1000.0 / 20000);
  EXPECT_DOUBLE_EQ(faulting(*at(flame, {"main"})), (2 + 3 + 8) * 1000.0 / 50000);
  EXPECT_DOUBLE_EQ(faulting(flame.frames[0]), faulting(*at(flame, {"main"})));
  const eval::NodeResult* computing = at(flame, {"main", "outer_b"})->result.evaluation.find("Computing");
  ASSERT_TRUE(computing && computing->value);
  EXPECT_DOUBLE_EQ(*computing->value, 1 - 3 * 1000.0 / 30000);
}

TEST_F(FlameGraphs, FramesUnderTheLeastShareJoinTheirParentsOtherFrame) {
  add({"big", "main"}, 900);
  add({"small_a", "main"}, 40);
  add({"deep", "small_b", "main"}, 30);
  add({"tiny", "big", "main"}, 30);
  const FlameGraph flame = graph(0.05);  // 50 of the 1000
  const FlameFrame* other = at(flame, {"main", kOtherFrame});
  ASSERT_NE(other, nullptr);
  EXPECT_DOUBLE_EQ(other->result.function.clock, 70) << "small_a and small_b with its callee";
  EXPECT_TRUE(other->children.empty());
  EXPECT_EQ(flame.frames[at(flame, {"main"})->children.back()].result.function.name, kOtherFrame) << "last";
  EXPECT_DOUBLE_EQ(at(flame, {"main", "big", kOtherFrame})->result.function.clock, 30);
  EXPECT_EQ(flame.merged, 4u) << "small_a, small_b, deep, tiny";
  EXPECT_EQ(at(flame, {"main", "small_a"}), nullptr);
}

TEST_F(FlameGraphs, WithoutCallStacksTheGraphIsTheSamplesOwnFunctions) {
  recording_.header.call_graph = recording::CallGraph::None;
  for (const auto& [function, clock] : {std::pair{"main", 70}, {"leaf", 30}}) {
    recording::Sample sample;
    sample.first_value = static_cast<uint32_t>(recording_.values.size());
    recording_.values.push_back(static_cast<uint64_t>(clock));
    recording_.values.push_back(0);
    sample.symbol = symbol(function);
    recording_.samples.push_back(sample);
  }
  const FlameGraph flame = graph();
  EXPECT_FALSE(flame.call_stacks);
  ASSERT_EQ(flame.frames.size(), 3u);
  EXPECT_DOUBLE_EQ(at(flame, {"main"})->result.function.share, 0.7);
  EXPECT_DOUBLE_EQ(at(flame, {"leaf"})->result.function.share, 0.3);
  EXPECT_TRUE(at(flame, {"leaf"})->children.empty());
}

}  // namespace
}  // namespace topdown::profile
