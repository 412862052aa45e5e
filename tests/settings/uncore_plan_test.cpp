// stat -a --info on a Sapphire Rapids-like machine (tests/data/sysfs-spr):
// the uncore Info metrics' events are planned on their units' box families,
// each group within a box's four counters and its events' restrictions.
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <map>
#include <set>

#include "events/model_resolver.h"
#include "schedule/plan.h"
#include "settings/stat.h"

namespace topdown::settings {
namespace {

const std::filesystem::path kModels = std::filesystem::path(TOPDOWN_SOURCE_DIR) / "models";
const std::filesystem::path kFixture = std::filesystem::path(TOPDOWN_SOURCE_DIR) / "tests/data/sysfs-spr";

// The fixture's boxes with the model of the Intel CPU `model` (family 6).
schedule::Plan plan_with_every_info_metric(int model_number = 0x8F, int stepping = 0) {
  cpu::CpuInfo cpu = cpu::detect(kFixture / "sys", kFixture / "proc");
  cpu.id.vendor = cpu::Vendor::Intel;
  cpu.id.family = 6;
  cpu.id.model = model_number;
  cpu.id.stepping = stepping;
  cpu.working_counters = 8;
  const model::Model model = model::select_model(kModels, cpu.id);
  events::ResolverConfig config = events::resolver_config(model, cpu);
  config.sysfs_devices = kFixture / "sys/bus/event_source/devices";
  const events::Resolver resolver(config);
  StatOptions options;
  options.system_wide = true;
  options.all_info = true;
  const StatPlanning planning = plan_stat(options, cpu, model, {});
  return schedule::make_plan(model, planning.vars, planning.selection, resolver, planning.budget);
}

TEST(UncorePlan, UncoreInfoMetricsArePlannedOnTheirUnitsBoxes) {
  const schedule::Plan plan = plan_with_every_info_metric();
  for (const char* metric : {"Info_System_DRAM_BW_Use", "Info_System_MEM_Read_Latency", "Info_System_Socket_CLKS",
                             "uncore_frequency", "Info_System_MEM_Parallel_Reads", "Info_System_IO_Write_BW",
                             "Info_System_UPI_Data_Transmit_BW", "iio_bandwidth_read"}) {
    EXPECT_NE(std::find(plan.nodes.begin(), plan.nodes.end(), metric), plan.nodes.end()) << metric;
  }
  std::map<std::string, std::set<std::string>> events_by_pmu;
  for (const schedule::Group& group : plan.groups) {
    if (!group.pmu.starts_with("uncore_")) continue;
    // The fixture has no PCU; stat leaves such events out (find_countable),
    // which this plan, made without trial opens, does not ask.
    if (group.events.front().type == events::Encoding::kAbsentPmu) continue;
    // A box has four counters; counter 0 alone takes the TOR occupancy events.
    EXPECT_LE(group.events.size(), 4u) << group.pmu;
    int on_counter_0_only = 0;
    for (const events::Encoding& event : group.events) {
      EXPECT_EQ(event.pmu, group.pmu);
      EXPECT_EQ(event.uncore_cpus, (std::vector<int>{0, 4})) << group.pmu << " " << event.name;
      on_counter_0_only += event.counter_mask == 1 ? 1 : 0;
      events_by_pmu[group.pmu].insert(event.name);
    }
    EXPECT_LE(on_counter_0_only, 1) << group.pmu;
  }
  EXPECT_TRUE(events_by_pmu["uncore_imc"].count("UNC_M_CAS_COUNT.RD"));
  EXPECT_TRUE(events_by_pmu["uncore_imc"].count("UNC_M_CAS_COUNT.WR"));
  EXPECT_TRUE(events_by_pmu["uncore_cha"].count("UNC_CHA_TOR_OCCUPANCY.IA_MISS_DRD"));
  EXPECT_TRUE(events_by_pmu["uncore_cha"].count("UNC_CHA_TOR_OCCUPANCY.IA_MISS_DRD:c1"));
  EXPECT_EQ(events_by_pmu["uncore_cha_0"], (std::set<std::string>{"UNC_CHA_CLOCKTICKS:one_unit"}));
  EXPECT_TRUE(events_by_pmu["uncore_upi"].count("UNC_UPI_TXL_FLITS.ALL_DATA"));
  EXPECT_TRUE(events_by_pmu["uncore_iio"].count("UNC_IIO_DATA_REQ_OF_CPU.MEM_READ.ALL_PARTS"));
}

// Skylake server (model 0x55, stepping 4): the CHA's filter 1 is perf's
// config1 high half, one value per group (a box has one filter register).
TEST(UncorePlan, SkylakeServerBoxFiltersAreConfig1AndOneAGroup) {
  const schedule::Plan plan = plan_with_every_info_metric(0x55, 4);
  for (const char* metric : {"Info_System_MEM_Read_Latency", "Info_System_MEM_Parallel_Reads",
                             "numa_reads_addressed_to_local_dram", "llc_data_read_demand_plus_prefetch_miss_latency"}) {
    EXPECT_NE(std::find(plan.nodes.begin(), plan.nodes.end(), metric), plan.nodes.end()) << metric;
  }
  std::map<std::string, uint64_t> filters;
  for (const schedule::Group& group : plan.groups) {
    if (group.pmu != "uncore_cha") continue;
    std::set<uint64_t> group_filters;
    for (const events::Encoding& event : group.events) {
      filters[event.name] = event.config1;
      if (event.config1 != 0) group_filters.insert(event.config1);
    }
    EXPECT_LE(group_filters.size(), 1u);
  }
  EXPECT_EQ(filters["UNC_CHA_TOR_OCCUPANCY.IA_MISS_DRD"], 0x40433ull << 32);
  EXPECT_EQ(filters["UNC_CHA_TOR_INSERTS.IA_MISS.FILTER1_0x40432"], 0x40432ull << 32);
  EXPECT_EQ(filters["UNC_CHA_TOR_INSERTS.IA_MISS.FILTER1_0x40431"], 0x40431ull << 32);
  EXPECT_EQ(filters["UNC_CHA_REQUESTS.READS_LOCAL"], 0u);
}

// The fixture's CPUs 0-3 sit on package 0 and 4-7 on package 1, and it
// registers three CHA boxes (uncore_cha_0 to _2).
TEST(UncorePlan, SocketsAndChasPerSocketComeFromThisMachine) {
  cpu::CpuInfo cpu = cpu::detect(kFixture / "sys", kFixture / "proc", cpu::CounterCheck::Skip);
  EXPECT_EQ(cpu.sockets, 2);
  cpu.id = {cpu::Vendor::Intel, "GenuineIntel", 6, 0x8F, 0, ""};
  const model::Model model = model::select_model(kModels, cpu.id);
  const StatPlanning planning = plan_stat(StatOptions{}, cpu, model, {});
  EXPECT_EQ(planning.vars.sockets, 2);
  EXPECT_EQ(planning.vars.chas_per_socket, 3);
}

}  // namespace
}  // namespace topdown::settings
