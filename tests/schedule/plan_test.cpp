#include <gtest/gtest.h>
#include <unistd.h>

#include <algorithm>
#include <filesystem>
#include <fstream>

#include "schedule/plan.h"
#include "support/tiny_model.h"

namespace topdown::schedule {
namespace {

events::Resolver tiny_resolver() {
  // One file per test process: ctest -j runs this binary's tests side by side.
  const std::string path = ::testing::TempDir() + "/tiny-" + std::to_string(::getpid()) + ".events";
  std::ofstream(path) << "cycles = cpu/event=0x76/\n"
                         "busy_slots = cpu/event=0x1a0,umask=0x1e/\n"
                         "idle_slots = cpu/event=0x1a0,umask=0x1/\n"
                         "hyper_slots = cpu/event=0x1a0,umask=0x60/\n"
                         "mem_stalls = cpu/event=0xd6,umask=0xa2/\n"
                         "all_stalls = cpu/event=0xd6,umask=0x2/\n"
                         "instructions = cpu/event=0xc0/\n";
  events::ResolverConfig config;
  config.tables = {path};
  config.pfm_pmu = "-";
  config.cpu.id.vendor = cpu::Vendor::Amd;
  events::Resolver resolver(config);
  std::filesystem::remove(path);
  return resolver;
}

std::vector<std::string> names(const Plan& plan) {
  std::vector<std::string> all;
  for (const auto& group : plan.groups) {
    for (const auto& event : group.events) all.push_back(counts::spelled(group.copies.key_of(event.name)));
  }
  std::sort(all.begin(), all.end());
  return all;
}

TEST(MakePlan, CountsWhatLevelOneNeedsInOneGroup) {
  auto model = testing::tiny_model();
  Plan plan = make_plan(model, {}, Selection{}, tiny_resolver(), {4, 0});
  // IPC rides along: its one extra event fits the group.
  EXPECT_EQ(plan.nodes, (std::vector<std::string>{"Busy", "Idle", "Hyper", "IPC"}));
  EXPECT_EQ(names(plan), (std::vector<std::string>{"busy_slots", "cycles", "idle_slots", "instructions"}));
  EXPECT_TRUE(plan.identities.empty());  // it fits: measure directly
  EXPECT_TRUE(plan.left_out.empty());
  EXPECT_FALSE(plan.multiplexed());
}

TEST(MakePlan, UsesAnIdentityWhenItSavesAGroup) {
  auto model = testing::tiny_model();
  Plan plan = make_plan(model, {}, Selection{}, tiny_resolver(), {2, 0});
  EXPECT_EQ(plan.identities, (model::IdentityChoice{"Idle"}));
  EXPECT_EQ(names(plan), (std::vector<std::string>{"busy_slots", "cycles"}));
  EXPECT_EQ(plan.groups.size(), 1u);
  EXPECT_EQ(plan.left_out, std::vector<std::string>{"IPC"});  // it would need a second group
  EXPECT_NE(describe(plan).find("Info metrics left out"), std::string::npos);
}

TEST(MakePlan, AllInfoAddsInfoMetricsEvenAtTheCostOfAGroup) {
  auto model = testing::tiny_model();
  Selection selection;
  selection.all_info = true;
  Plan plan = make_plan(model, {}, selection, tiny_resolver(), {2, 0});
  EXPECT_EQ(plan.nodes.back(), "IPC");
  EXPECT_EQ(plan.groups.size(), 2u);
  EXPECT_TRUE(plan.multiplexed());
}

TEST(MakePlan, SmtOnlyTermsNeedEventsOnlyWithSmt) {
  auto model = testing::tiny_model();
  model::RunVariables smt;
  smt.smt_enabled = true;
  Plan plan = make_plan(model, smt, Selection{}, tiny_resolver(), {4, 0});
  EXPECT_EQ(names(plan), (std::vector<std::string>{"busy_slots", "cycles", "hyper_slots", "idle_slots"}));
}

TEST(MakePlan, DeeperLevelsAndInfoAndExtraEventsRotateWhenTheyDoNotFit) {
  auto model = testing::tiny_model();
  Selection selection;
  selection.max_level = 2;
  selection.extra_events = {"instructions"};
  Plan plan = make_plan(model, {}, selection, tiny_resolver(), {3, 0});
  EXPECT_EQ(plan.nodes.back(), "IPC");
  // Busy_Memory's four events cannot share 3 counters: mem_stalls joins
  // Busy's group, all_stalls starts the second. IPC is counted whole there,
  // with a copy of the cycles; measuring Idle as well would take a third
  // group, so Idle comes from its identity.
  EXPECT_EQ(plan.identities, (model::IdentityChoice{"Idle"}));
  EXPECT_EQ(names(plan), (std::vector<std::string>{"all_stalls", "busy_slots", "cycles", "cycles:group2",
                                                   "instructions", "mem_stalls"}));
  EXPECT_TRUE(plan.multiplexed());
  EXPECT_EQ(plan.node_groups.at("Busy"), 1);
  EXPECT_EQ(plan.node_groups.at("IPC"), 2);
  EXPECT_EQ(plan.node_groups.count("Busy_Memory"), 0u);  // spread over both groups
  for (const auto& group : plan.groups) EXPECT_LE(group.general_counters_used(plan.budget), 3);
  EXPECT_NE(describe(plan).find("groups rotate"), std::string::npos);
  EXPECT_EQ(plan.groups[1].copies.events, (std::set<std::string, std::less<>>{"cycles"}));
  EXPECT_NE(describe(plan).find(" cycles:group2"), std::string::npos) << describe(plan);
}

TEST(MakePlan, RejectsALevelOutOfRange) {
  auto model = testing::tiny_model();
  Selection selection;
  selection.max_level = 7;
  EXPECT_THROW(make_plan(model, {}, selection, tiny_resolver(), {4, 0}), Error);
}

}  // namespace
}  // namespace topdown::schedule
