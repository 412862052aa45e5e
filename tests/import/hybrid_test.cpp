// perf stat files of a hybrid CPU: each core type's rows apart.
#include <gtest/gtest.h>

#include "import/hybrid.h"
#include "import_fixture.h"

namespace topdown::import {
namespace {

using testing::read_whole;
using testing::value_of;

const std::vector<std::string> kCorePmus = {"cpu_atom", "cpu_core"};

// The task ran on both core types; duration_time and msr/tsc/ belong to
// neither; one E-core row is a spelling with terms.
constexpr const char* kBothTypes =
    "2000000,,cpu_core/INST_RETIRED.ANY/,1000000,100.00,,\n"
    "1000000,,cpu_core/CPU_CLK_UNHALTED.THREAD/,1000000,100.00,,\n"
    "300000,,cpu_atom/INST_RETIRED.ANY/,400000,100.00,,\n"
    "500000,,cpu_atom/CPU_CLK_UNHALTED.CORE/,400000,100.00,,\n"
    "7000,,cpu_atom/config=0xc4/,200000,50.00,,\n"
    "5000000,ns,duration_time,5000000,100.00,,\n"
    "9000000,,msr/tsc/,5000000,100.00,,\n";

std::vector<std::string> names(const Interval& interval) {
  std::vector<std::string> out;
  for (const auto& [key, count] : interval.sample.events) out.push_back(key.event);
  return out;
}

TEST(Hybrid, CorePmusOfTheFile) {
  const auto file = read_whole(kBothTypes);
  EXPECT_EQ(core_pmus_of(file.info.events), kCorePmus);
  EXPECT_TRUE(core_pmus_of({"cycles", "cpu/event=0x3c/", "msr/tsc/", "cpu_core"}).empty());
}

TEST(Hybrid, EachCoreTypeReadsItsOwnRowsUnderTheirNames) {
  const auto file = read_whole(kBothTypes);
  const Interval p_cores = core_type_interval(file.whole, "cpu_core", kCorePmus);
  EXPECT_EQ(names(p_cores),
            (std::vector<std::string>{"CPU_CLK_UNHALTED.THREAD", "INST_RETIRED.ANY", "duration_time", "msr/tsc/"}));
  EXPECT_DOUBLE_EQ(value_of(p_cores, "INST_RETIRED.ANY"), 2000000);
  const Interval e_cores = core_type_interval(file.whole, "cpu_atom", kCorePmus);
  EXPECT_EQ(names(e_cores), (std::vector<std::string>{"CPU_CLK_UNHALTED.CORE", "INST_RETIRED.ANY",
                                                      "cpu_atom/config=0xc4/", "duration_time", "msr/tsc/"}));
  EXPECT_DOUBLE_EQ(value_of(e_cores, "INST_RETIRED.ANY"), 300000);
  // Times travel with the counts: the term spelling ran half its time.
  EXPECT_EQ(e_cores.sample.find("cpu_atom/config=0xc4/")->time_running, 200000u);
  EXPECT_EQ(e_cores.sample.find("cpu_atom/config=0xc4/")->time_enabled, 400000u);
  EXPECT_DOUBLE_EQ(e_cores.sample.duration_s, file.whole.sample.duration_s);

  const FileInfo e_file = core_type_file(file.info, "cpu_atom", kCorePmus);
  EXPECT_EQ(e_file.events, (std::vector<std::string>{"INST_RETIRED.ANY", "CPU_CLK_UNHALTED.CORE",
                                                     "cpu_atom/config=0xc4/", "duration_time", "msr/tsc/"}));
}

TEST(Hybrid, ACoreTypeTheTaskNeverRanOnCountedNothing) {
  const auto file = read_whole(
      "2000000,,cpu_core/INST_RETIRED.ANY/,1000000,100.00,,\n"
      "<not counted>,,cpu_atom/INST_RETIRED.ANY/,0,0.00,,\n"
      "5000000,ns,duration_time,5000000,100.00,,\n");
  EXPECT_TRUE(ran_on(file.whole, "cpu_core"));
  EXPECT_FALSE(ran_on(file.whole, "cpu_atom"));
  EXPECT_TRUE(ran_on(read_whole(kBothTypes).whole, "cpu_atom"));
}

TEST(Hybrid, PerCpuRowsKeepOnlyTheCpusOfTheCoreType) {
  topdown::testing::TempTree tree;
  ReadOptions options;
  options.per_place = true;
  Interval whole;
  read_file(tree.write("perf.csv",
                       "CPU0,100,,cpu_core/INST_RETIRED.ANY/,1000,100.00,,\n"
                       "CPU8,30,,cpu_atom/INST_RETIRED.ANY/,1000,100.00,,\n"
                       "CPU9,40,,cpu_atom/INST_RETIRED.ANY/,1000,100.00,,\n"
                       "CPU0,7,,msr/tsc/,1000,100.00,,\n"
                       "CPU8,8,,msr/tsc/,1000,100.00,,\n"
                       "CPU9,9,,msr/tsc/,1000,100.00,,\n"),
            options, [&](const Interval& interval, const FileInfo&) { whole = interval; });
  const Interval e_cores = core_type_interval(whole, "cpu_atom", kCorePmus);
  ASSERT_EQ(e_cores.places.size(), 2u);
  EXPECT_EQ(e_cores.places[0].label, "CPU8");
  EXPECT_DOUBLE_EQ(e_cores.places[0].sample.find("INST_RETIRED.ANY")->value, 30);
  EXPECT_DOUBLE_EQ(e_cores.places[1].sample.find("msr/tsc/")->value, 9);
  const Interval p_cores = core_type_interval(whole, "cpu_core", kCorePmus);
  ASSERT_EQ(p_cores.places.size(), 1u);
  EXPECT_EQ(p_cores.places[0].label, "CPU0");
  EXPECT_EQ(p_cores.places[0].sample.find("cpu_atom/INST_RETIRED.ANY/"), nullptr);
}

// An Arm big.LITTLE system's rows, one core PMU per kind; an Arm CPU of
// one kind whose kernel names its one core PMU in every row is not split.
TEST(Hybrid, TwoArmCorePmusAreTwoCoreTypes) {
  const auto file = read_whole(
      "2000000,,armv8_pmuv3_0/cpu_cycles/,1000000,100.00,,\n"
      "700000,,armv8_pmuv3_0/r0225/,1000000,100.00,,\n"
      "3000000,,armv8_pmuv3_1/cpu_cycles/,1000000,100.00,,\n"
      "9000000,,arm_cmn_0/config=0x1/,5000000,100.00,,\n");
  const std::vector<std::string> arm_pmus = {"armv8_pmuv3_0", "armv8_pmuv3_1"};
  EXPECT_EQ(core_pmus_of(file.info.events), arm_pmus);
  const Interval little = core_type_interval(file.whole, "armv8_pmuv3_0", arm_pmus);
  EXPECT_EQ(names(little), (std::vector<std::string>{"arm_cmn_0/config=0x1/", "cpu_cycles", "r0225"}));
  EXPECT_DOUBLE_EQ(value_of(little, "cpu_cycles"), 2000000);
  const Interval big = core_type_interval(file.whole, "armv8_pmuv3_1", arm_pmus);
  EXPECT_DOUBLE_EQ(value_of(big, "cpu_cycles"), 3000000);
  EXPECT_TRUE(core_pmus_of({"armv8_pmuv3_0/cpu_cycles/", "armv8_pmuv3_0/r0008/", "arm_cmn_0/config=0x1/"}).empty());
}

}  // namespace
}  // namespace topdown::import
