// --children and --callers of named call stacks built here, with known
// clock deltas per stack.
#include "profile/call_stacks.h"

#include <gtest/gtest.h>

#include <algorithm>

#include "common/error.h"

namespace topdown::profile {
namespace {

// A recording of one cpu-clock group whose samples each carry a named stack
// (innermost function first) and a clock delta.
class Stacks {
 public:
  Stacks() {
    recording_.header.call_graph = recording::CallGraph::PerfScript;
    recording::SampledGroup group;
    group.events = {"cpu-clock"};
    recording_.header.groups.push_back(group);
  }

  void add(const std::vector<std::string>& stack, uint64_t clock, std::vector<std::string> inlined = {}) {
    recording::Sample sample;
    sample.time = recording_.samples.size();
    sample.first_value = static_cast<uint32_t>(recording_.values.size());
    recording_.values.push_back(clock);
    sample.first_frame = static_cast<uint32_t>(recording_.frames.addresses.size());
    sample.user_frames = static_cast<uint16_t>(stack.size());
    for (std::size_t i = 0; i < stack.size(); ++i) {
      recording_.frames.addresses.push_back(0x1000 + i);
      recording_.frames.symbols.push_back(symbol(stack[i], i == 0 ? inlined : std::vector<std::string>{}));
    }
    sample.symbol = recording_.frames.symbols[sample.first_frame];
    recording_.samples.push_back(sample);
  }

  const recording::Recording& recording() const { return recording_; }

 private:
  uint32_t symbol(const std::string& function, std::vector<std::string> inlined) {
    for (uint32_t i = 0; i < recording_.symbols.size(); ++i) {
      if (recording_.symbols[i].function == function && recording_.symbols[i].inline_chain == inlined) return i;
    }
    recording_.symbols.push_back({function, "/bin/app", "", 0, std::move(inlined)});
    return static_cast<uint32_t>(recording_.symbols.size() - 1);
  }

  recording::Recording recording_;
};

const Function* find(const Attribution& attribution, const std::string& name) {
  for (const Function& function : attribution.functions) {
    if (function.name == name) return &function;
  }
  return nullptr;
}

TEST(CallStacks, ChildrenCountEachFunctionOncePerSampleWhereverItIsOnTheStack) {
  Stacks stacks;
  stacks.add({"leaf", "outer_a", "main"}, 100);
  stacks.add({"leaf", "outer_b", "main"}, 300);
  stacks.add({"outer_a", "main"}, 50);
  stacks.add({"rec", "rec", "rec", "main"}, 50);  // recursion counts once
  const Attribution children = attribute_children(stacks.recording());
  ASSERT_NE(find(children, "main"), nullptr);
  EXPECT_DOUBLE_EQ(find(children, "main")->clock, 500);
  EXPECT_DOUBLE_EQ(find(children, "main")->share, 1.0);
  EXPECT_DOUBLE_EQ(find(children, "outer_a")->clock, 150);
  EXPECT_EQ(find(children, "outer_a")->samples, 2u);
  EXPECT_DOUBLE_EQ(find(children, "leaf")->clock, 400);
  EXPECT_DOUBLE_EQ(find(children, "rec")->clock, 50);
  EXPECT_EQ(find(children, "rec")->samples, 1u);
  EXPECT_DOUBLE_EQ(children.whole.clock, 500) << "the whole program once, however many functions a sample feeds";
  EXPECT_EQ(children.functions.front().name, "main") << "largest share first";
}

TEST(CallStacks, ChildrenNameInlinedFunctionsAsFramesOfTheirOwn) {
  Stacks stacks;
  stacks.add({"compute", "main"}, 70, {"mix_step"});
  stacks.add({"compute", "main"}, 30);
  const Attribution children = attribute_children(stacks.recording());
  ASSERT_NE(find(children, "mix_step"), nullptr);
  EXPECT_DOUBLE_EQ(find(children, "mix_step")->clock, 70);
  EXPECT_DOUBLE_EQ(find(children, "compute")->clock, 100);
}

TEST(CallStacks, CallersSplitAFunctionsSamplesByThePathIntoIt) {
  Stacks stacks;
  stacks.add({"leaf", "outer_a", "main"}, 100);
  stacks.add({"leaf", "outer_b", "main"}, 300);
  stacks.add({"leaf", "outer_b", "main"}, 100);
  stacks.add({"outer_a", "main"}, 500);              // not through leaf
  stacks.add({"leaf", "rec", "leaf", "main"}, 200);  // the outermost leaf is the way in
  const Attribution paths = attribute_callers(stacks.recording(), "leaf", "app.data");
  ASSERT_EQ(paths.functions.size(), 3u);
  EXPECT_EQ(paths.functions[0].callers, (std::vector<std::string>{"main", "outer_b", "leaf"}));
  EXPECT_DOUBLE_EQ(paths.functions[0].clock, 400);
  EXPECT_EQ(paths.functions[0].samples, 2u);
  EXPECT_EQ(paths.functions[1].callers, (std::vector<std::string>{"main", "leaf"}));
  EXPECT_DOUBLE_EQ(paths.functions[1].clock, 200);
  EXPECT_EQ(paths.functions[2].callers, (std::vector<std::string>{"main", "outer_a", "leaf"}));
  double shares = 0;
  for (const Function& path : paths.functions) {
    EXPECT_EQ(path.name, "leaf");
    shares += path.share;
  }
  const Attribution children = attribute_children(stacks.recording());
  EXPECT_NEAR(shares, find(children, "leaf")->share, 1e-12) << "every sample with leaf on its stack has one path";
}

TEST(CallStacks, CallerPathsStopAtTheirDepth) {
  Stacks stacks;
  std::vector<std::string> deep = {"leaf"};
  for (std::size_t i = 0; i < kCallerDepth + 5; ++i) deep.push_back("f" + std::to_string(i));
  stacks.add(deep, 10);
  const Attribution paths = attribute_callers(stacks.recording(), "leaf", "app.data");
  ASSERT_EQ(paths.functions.size(), 1u);
  ASSERT_EQ(paths.functions[0].callers.size(), kCallerDepth + 1);
  EXPECT_EQ(paths.functions[0].callers.front(), "f" + std::to_string(kCallerDepth - 1));
}

TEST(CallStacks, CallersOfAFunctionNoStackHoldsIsAnError) {
  Stacks stacks;
  stacks.add({"leaf", "main"}, 10);
  try {
    attribute_callers(stacks.recording(), "missing", "app.data");
    ADD_FAILURE() << "no error";
  } catch (const Error& error) {
    const std::string message = error.what();
    EXPECT_NE(message.find("--callers missing"), std::string::npos) << message;
    EXPECT_NE(message.find("app.data"), std::string::npos) << message;
  }
}

TEST(CallStacks, AFunctionIsNamedWholeWithoutParametersOrByItsLastComponents) {
  EXPECT_TRUE(names_function("app::leaf(unsigned long)", "app::leaf(unsigned long)"));
  EXPECT_TRUE(names_function("app::leaf(unsigned long)", "app::leaf"));
  EXPECT_TRUE(names_function("app::leaf(unsigned long)", "leaf"));
  EXPECT_TRUE(names_function("leaf", "leaf"));
  EXPECT_FALSE(names_function("app::myleaf(int)", "leaf"));
  EXPECT_FALSE(names_function("leaf_two", "leaf"));
  EXPECT_FALSE(names_function("leaf", ""));
}

}  // namespace
}  // namespace topdown::profile
