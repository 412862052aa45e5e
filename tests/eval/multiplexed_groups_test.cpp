// Rotating counter groups: a node computed from one group's counts compares
// counts of the same time slices; a node spread over groups does not.
#include <gtest/gtest.h>

#include "eval/evaluate.h"
#include "support/tiny_model.h"

namespace topdown::eval {
namespace {

// A run of two equal halves at different clock speeds (1000 then 3000
// cycles) with IPC 2 throughout. Group 1 (cycles, busy_slots, mem_stalls,
// all_stalls) was on the counters in the first half, group 2 (instructions
// and its own copy of cycles) in the second: each counted 50% of the time.
counts::Sample two_groups_at_half_time() {
  const uint64_t enabled = 2000;
  const uint64_t half = 1000;
  counts::Sample s;
  s.events["cycles"] = {1000, enabled, half};
  s.events["busy_slots"] = {3000, enabled, half};
  s.events["mem_stalls"] = {300, enabled, half};
  s.events["all_stalls"] = {600, enabled, half};
  s.events["instructions"] = {6000, enabled, half};
  s.events[counts::EventKey{"cycles", 2}] = {3000, enabled, half};
  return s;
}

TEST(MultiplexedGroups, ANodeReadFromOneGroupGivesTheExactRatio) {
  const auto model = testing::tiny_model();
  Options options;
  options.node_groups = {{"IPC", 2}, {"Busy", 1}};
  const Evaluation e = evaluate(model, {"Busy", "IPC"}, two_groups_at_half_time(), options);
  const NodeResult* ipc = e.find("IPC");
  EXPECT_DOUBLE_EQ(*ipc->value, 2.0);  // 12000 / 6000, both scaled from the second half
  EXPECT_DOUBLE_EQ(ipc->counted_share, 0.5);
  EXPECT_TRUE(ipc->multiplexed);
  EXPECT_FALSE(ipc->unreliable);
  EXPECT_TRUE(ipc->missing_events.empty());
  // Busy keeps group 1's cycles: 3000 / (4 * 1000).
  EXPECT_DOUBLE_EQ(*e.find("Busy")->value, 0.75);
}

TEST(MultiplexedGroups, ANodeSpreadOverGroupsMixesTimeSlices) {
  const auto model = testing::tiny_model();
  // Without its group, IPC divides the second half's instructions by the
  // first half's cycles, both scaled to the whole run: 12000 / 2000.
  const Evaluation e = evaluate(model, {"IPC"}, two_groups_at_half_time(), Options{});
  EXPECT_DOUBLE_EQ(*e.find("IPC")->value, 6.0);
}

TEST(MultiplexedGroups, AGroupWithoutACopyReadsTheEventsOwnName) {
  const auto model = testing::tiny_model();
  counts::Sample s = two_groups_at_half_time();
  s.events.erase(counts::EventKey{"cycles", 2});
  Options options;
  options.node_groups = {{"IPC", 2}};
  const Evaluation e = evaluate(model, {"IPC"}, s, options);
  EXPECT_DOUBLE_EQ(*e.find("IPC")->value, 6.0);
  EXPECT_TRUE(e.find("IPC")->missing_events.empty());
}

// Nodes referring to other nodes compute them from their own group's counts.
TEST(MultiplexedGroups, ReferencedNodesUseTheSameGroup) {
  const auto model = testing::tiny_model();
  counts::Sample s = two_groups_at_half_time();
  // Busy_Core = Busy - Busy_Memory, all from group 3 with its own cycles.
  s.events[counts::EventKey{"cycles", 3}] = {2000, 2000, 1000};
  s.events[counts::EventKey{"busy_slots", 3}] = {4000, 2000, 1000};
  s.events[counts::EventKey{"mem_stalls", 3}] = {100, 2000, 1000};
  s.events[counts::EventKey{"all_stalls", 3}] = {400, 2000, 1000};
  Options options;
  options.node_groups = {{"Busy_Core", 3}};
  const Evaluation e = evaluate(model, {"Busy", "Busy_Core"}, s, options);
  EXPECT_DOUBLE_EQ(*e.find("Busy")->value, 0.75);  // group 1, by its own name
  EXPECT_DOUBLE_EQ(*e.find("Busy_Core")->value, 0.5 - 0.5 * 100 / 400);
}

TEST(MultiplexedGroups, NodesCountedTooLittleAreUnreliable) {
  const auto model = testing::tiny_model();
  counts::Sample s = two_groups_at_half_time();
  s.events["instructions"] = {1200, 2000, 400};
  s.events[counts::EventKey{"cycles", 2}] = {600, 2000, 400};
  Options options;
  options.node_groups = {{"IPC", 2}};
  options.min_counted_share = 0.25;
  const Evaluation e = evaluate(model, {"Busy", "IPC"}, s, options);
  EXPECT_DOUBLE_EQ(e.find("IPC")->counted_share, 0.2);
  EXPECT_TRUE(e.find("IPC")->unreliable);
  EXPECT_FALSE(e.find("Busy")->unreliable);  // group 1 ran half the time
  EXPECT_DOUBLE_EQ(e.counted_share, 0.2);
}

}  // namespace
}  // namespace topdown::eval
