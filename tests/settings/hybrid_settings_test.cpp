// stat on a hybrid CPU: each core type's tree is planned with its own
// counters and opens on its own PMU and CPUs (an Alder Lake-like sysfs:
// cpu_core type 4 on CPUs 0-7, cpu_atom type 8 on CPUs 8-15).
#include <gtest/gtest.h>

#include <filesystem>

#include "common/error.h"
#include "events/model_resolver.h"
#include "schedule/plan.h"
#include "settings/hybrid.h"
#include "settings/record.h"
#include "settings/stat.h"

namespace topdown::settings {
namespace {

const std::filesystem::path kModels = std::filesystem::path(TOPDOWN_SOURCE_DIR) / "models";
const std::filesystem::path kFixture = std::filesystem::path(TOPDOWN_SOURCE_DIR) / "tests/data/sysfs-adl";

// The fixture's PMUs and CPUs, with an Alder Lake's CPU id (cpuid is the
// host's) and a health check that counted 3 counters on whichever core it ran.
cpu::CpuInfo alder_lake() {
  cpu::CpuInfo cpu = cpu::detect(kFixture / "sys", kFixture / "proc");
  cpu.id.vendor = cpu::Vendor::Intel;
  cpu.id.family = 6;
  cpu.id.model = 0x97;
  cpu.working_counters = 3;
  return cpu;
}

std::vector<int> range(int first, int last) {
  std::vector<int> indexes;
  for (int index = first; index <= last; ++index) indexes.push_back(index);
  return indexes;
}

class HybridStat : public ::testing::Test {
 protected:
  cpu::CpuInfo cpu = alder_lake();
  std::vector<model::Model> models = model::with_companion(model::select_model(kModels, cpu.id), kModels);

  // A core type's tree (models[type]) planned up to `level`, its events
  // resolved on the fixture's PMUs, and the budget it had.
  std::pair<schedule::Plan, schedule::CounterBudget> plan_of(size_t type, int level) const {
    const model::Model& model = models[type];
    events::ResolverConfig config = events::resolver_config(model, cpu);
    config.sysfs_devices = kFixture / "sys/bus/event_source/devices";
    const events::Resolver resolver(config);
    StatOptions options;
    options.report.level = level;
    const StatPlanning planning = plan_stat(options, cpu, model, {});
    return {schedule::make_plan(model, planning.vars, planning.selection, resolver, planning.budget), planning.budget};
  }
  std::pair<schedule::Plan, schedule::CounterBudget> e_core_plan(int level) const { return plan_of(1, level); }

  // Each core type's groups as stat opens them on `target`.
  std::vector<std::vector<collect::CounterGroup>> groups_by_type(int level, const collect::Target& target) const {
    std::vector<std::vector<collect::CounterGroup>> by_type;
    for (size_t type = 0; type < models.size(); ++type) {
      const CountedGroups counted = counted_groups(plan_of(type, level).first, aggregate::View::Global, target);
      by_type.push_back(core_type_groups(counted.groups, core_type_placement(cpu, models[type], target)));
    }
    return by_type;
  }
};

// The PMU a group of core_type_groups counts on, by its first event's name.
std::string pmu_of(const collect::CounterGroup& group) {
  const std::string& name = group.events.front().name;
  return name.substr(0, name.find('/'));
}

TEST_F(HybridStat, EachCoreTypeOpensOnItsPmuAndCpus) {
  ASSERT_EQ(models.size(), 2u);
  const collect::Target command{{"./app"}, {}, {}, {}};
  const CoreTypePlacement p_cores = core_type_placement(cpu, models[0], command);
  EXPECT_EQ(p_cores.core_type, "P-core");
  EXPECT_EQ(p_cores.pmu, "cpu_core");
  EXPECT_EQ(p_cores.pmu_type, 4);
  EXPECT_EQ(p_cores.cpus, range(0, 7));
  const CoreTypePlacement e_cores = core_type_placement(cpu, models[1], command);
  EXPECT_EQ(e_cores.core_type, "E-core");
  EXPECT_EQ(e_cores.pmu, "cpu_atom");
  EXPECT_EQ(e_cores.pmu_type, 8);
  EXPECT_EQ(e_cores.cpus, range(8, 15));
}

TEST_F(HybridStat, CpusOfCAreGroupedByCoreType) {
  const collect::Target some_cpus{{}, {}, {6, 7, 8, 9}, {}};
  EXPECT_EQ(core_type_placement(cpu, models[0], some_cpus).cpus, range(6, 7));
  EXPECT_EQ(core_type_placement(cpu, models[1], some_cpus).cpus, range(8, 9));
  const collect::Target p_cores_only{{}, {}, range(0, 3), {}};
  EXPECT_TRUE(core_type_placement(cpu, models[1], p_cores_only).cpus.empty());
}

TEST_F(HybridStat, EachCoreTypePlansWithTheCountersItsModelDeclares) {
  // The health check's 3 counted on one core type only: not either's budget.
  for (const model::Model& model : models) {
    SCOPED_TRACE(model.name);
    EXPECT_TRUE(plans_by_core_type(cpu, model));
    const schedule::CounterBudget budget = counter_budget(cpu, model, false, std::nullopt);
    EXPECT_EQ(budget.general, static_cast<int>(model.counters.general_for(false)));
    EXPECT_EQ(budget.fixed, static_cast<int>(model.counters.fixed));
  }
  EXPECT_NE(models[0].counters.general_for(false), models[1].counters.general_for(false));
  EXPECT_EQ(counter_budget(cpu, models[1], false, 2).general, 2) << "--counters still decides";
}

TEST_F(HybridStat, TheECoreTreesGroupsAreAllOnCpuAtom) {
  const auto [plan, budget] = e_core_plan(2);
  ASSERT_FALSE(plan.groups.empty());
  for (const schedule::Group& group : plan.groups) {
    EXPECT_EQ(group.pmu, "cpu_atom");
    EXPECT_LE(group.general_counters_used(budget), budget.general);
    for (const events::Encoding& event : group.events) {
      EXPECT_EQ(event.type, 8u) << event.name;
      EXPECT_EQ(event.perf_spelling().rfind("cpu_atom/", 0), 0u) << event.perf_spelling();
    }
  }
}

TEST_F(HybridStat, EachTypesGroupsAreNamedForItsPmuAndOpenOnItsCpus) {
  const schedule::Plan plan = e_core_plan(1).first;
  const collect::Target some_cpus{{}, {}, {2, 9, 10}, {}};
  const CountedGroups counted = counted_groups(plan, aggregate::View::Global, some_cpus);
  const std::vector<collect::CounterGroup> groups =
      core_type_groups(counted.groups, core_type_placement(cpu, models[1], some_cpus));
  ASSERT_EQ(groups.size(), counted.groups.size());
  for (size_t g = 0; g < groups.size(); ++g) {
    EXPECT_EQ(groups[g].cpus, (std::vector<int>{9, 10}));
    ASSERT_EQ(groups[g].events.size(), counted.groups[g].events.size());
    for (size_t e = 0; e < groups[g].events.size(); ++e) {
      EXPECT_EQ(groups[g].events[e].name, "cpu_atom/" + counted.groups[g].events[e].name + "/");
      EXPECT_EQ(groups[g].events[e].type, 8u);
    }
  }
}

TEST_F(HybridStat, StatAndServePlaceEveryCoreTypeTheTargetHasCpusOf) {
  std::vector<CoreTypePlan> types;
  for (const model::Model& model : models) {
    events::ResolverConfig config = events::resolver_config(model, cpu);
    config.sysfs_devices = kFixture / "sys/bus/event_source/devices";
    const StatPlanning planning = plan_stat(StatOptions{}, cpu, model, {});
    schedule::Plan plan =
        schedule::make_plan(model, planning.vars, planning.selection, events::Resolver(config), planning.budget);
    types.push_back({model, planning.vars, std::move(plan)});
  }
  ASSERT_TRUE(counts_core_types(cpu, types));
  EXPECT_FALSE(counts_core_types(cpu, {types.front()})) << "one tree is counted as one";

  // -C 3,4,12: P-cores 3 and 4 (cpu_core, type 4), E-core 12 (cpu_atom, type 8).
  const PlacedCoreTypes placed =
      place_core_types(cpu, types, aggregate::View::Thread, collect::Target{{}, {}, {3, 4, 12}, {}});
  ASSERT_EQ(placed.types.size(), 2u);
  EXPECT_EQ(placed.types[0].type, &types[0]);
  EXPECT_EQ(placed.types[0].placement.core_type, "P-core");
  EXPECT_EQ(placed.types[0].placement.cpus, range(3, 4));
  EXPECT_EQ(placed.types[1].placement.core_type, "E-core");
  EXPECT_EQ(placed.types[1].placement.cpus, range(12, 12));
  const size_t p_groups = types[0].plan.groups.size();
  ASSERT_EQ(placed.groups.size(), p_groups + types[1].plan.groups.size());
  for (size_t g = 0; g < placed.groups.size(); ++g) {
    const bool p_core = g < p_groups;
    const collect::CounterGroup& group = placed.groups[g];
    EXPECT_EQ(group.cpus, p_core ? range(3, 4) : range(12, 12));
    for (const events::Encoding& event : group.events) {
      EXPECT_EQ(event.name.rfind(p_core ? "cpu_core/" : "cpu_atom/", 0), 0u) << event.name;
      EXPECT_EQ(event.type, p_core ? 4u : 8u) << event.name;
    }
  }

  // -C 0-3: P-cores only; the E-core tree is not counted.
  const PlacedCoreTypes p_only =
      place_core_types(cpu, types, aggregate::View::Global, collect::Target{{}, {}, range(0, 3), {}});
  ASSERT_EQ(p_only.types.size(), 1u);
  EXPECT_EQ(p_only.types[0].placement.pmu, "cpu_core");
  EXPECT_EQ(p_only.groups.size(), p_groups);
}

TEST_F(HybridStat, RecordSamplesEachTypesGroupsUnderTheirNamesOnItsCpus) {
  const schedule::Plan plan = e_core_plan(2).first;
  // A command: opened on the task on every E-core, sampling it while it runs there.
  const collect::Target command{{"./app"}, {}, {}, {}};
  const std::vector<collect::CounterGroup> groups = sampled_groups(plan, command);
  const std::vector<collect::CounterGroup> sampled =
      sampled_core_type_groups(groups, core_type_placement(cpu, models[1], command));
  ASSERT_EQ(sampled.size(), groups.size());
  for (size_t g = 0; g < sampled.size(); ++g) {
    EXPECT_EQ(sampled[g].cpus, range(8, 15));
    ASSERT_EQ(sampled[g].events.size(), groups[g].events.size());
    for (size_t e = 0; e < sampled[g].events.size(); ++e) {
      EXPECT_EQ(sampled[g].events[e].name, groups[g].events[e].name) << "the data file names the group's PMU";
      EXPECT_EQ(sampled[g].events[e].type, 8u);
      EXPECT_EQ(sampled[g].events[e].pmu, "cpu_atom");
    }
  }
  // -C 2,9: the E-core tree on CPU 9 alone.
  const collect::Target some_cpus{{}, {}, {2, 9}, {}};
  for (const collect::CounterGroup& group :
       sampled_core_type_groups(sampled_groups(plan, some_cpus), core_type_placement(cpu, models[1], some_cpus))) {
    EXPECT_EQ(group.cpus, (std::vector<int>{9}));
  }
}

TEST_F(HybridStat, NoMultiplexRunsEachTypesGroupsSideBySide) {
  const collect::Target command{{"./app"}, {}, {}, {}};
  std::vector<std::vector<collect::CounterGroup>> by_type;
  // Each type's groups fit the counters of its own model (its PMU's), not
  // the other type's.
  for (size_t type = 0; type < models.size(); ++type) {
    SCOPED_TRACE(models[type].name);
    const auto [plan, budget] = plan_of(type, 3);
    for (const schedule::Group& group : plan.groups) EXPECT_LE(group.general_counters_used(budget), budget.general);
    const CountedGroups counted = counted_groups(plan, aggregate::View::Global, command);
    by_type.push_back(core_type_groups(counted.groups, core_type_placement(cpu, models[type], command)));
  }
  ASSERT_GT(by_type[0].size(), 1u) << "more than one group a type, or the runs show nothing";
  ASSERT_GT(by_type[1].size(), 1u);
  const std::vector<std::vector<collect::CounterGroup>> runs = side_by_side_runs(by_type);
  ASSERT_EQ(runs.size(), std::max(by_type[0].size(), by_type[1].size()));
  std::vector<size_t> next(by_type.size(), 0);  // per type, the group the next run should have
  for (const std::vector<collect::CounterGroup>& run : runs) {
    std::vector<std::string> pmus;
    for (const collect::CounterGroup& group : run) {
      const size_t type = pmu_of(group) == "cpu_core" ? 0 : 1;
      ASSERT_LT(next[type], by_type[type].size());
      EXPECT_EQ(group.events.front().name, by_type[type][next[type]].events.front().name);
      EXPECT_EQ(group.events.size(), by_type[type][next[type]].events.size());
      ++next[type];
      pmus.push_back(pmu_of(group));
    }
    // At most one group of each PMU a run: no group shares counters.
    EXPECT_LE(pmus.size(), 2u);
    EXPECT_TRUE(pmus.size() < 2 || pmus[0] != pmus[1]) << pmus[0];
  }
  EXPECT_EQ(next[0], by_type[0].size());
  EXPECT_EQ(next[1], by_type[1].size());
}

TEST(SideBySideRuns, RunKHasGroupKOfEveryTypeThatHasOne) {
  const auto group = [](const std::string& name) {
    collect::CounterGroup one;
    one.events.push_back(events::Encoding{});
    one.events.back().name = name;
    return one;
  };
  const std::vector<std::vector<collect::CounterGroup>> runs =
      side_by_side_runs({{group("P0"), group("P1"), group("P2")}, {group("E0")}});
  ASSERT_EQ(runs.size(), 3u);
  const std::vector<std::vector<std::string>> expected = {{"P0", "E0"}, {"P1"}, {"P2"}};
  for (size_t r = 0; r < runs.size(); ++r) {
    std::vector<std::string> names;
    for (const collect::CounterGroup& one : runs[r]) names.push_back(one.events.front().name);
    EXPECT_EQ(names, expected[r]);
  }
  EXPECT_TRUE(side_by_side_runs({}).empty());
}

TEST_F(HybridStat, EachTypesGroupsCountTheCgroupsOnItsOwnCpus) {
  // -G: perf counts a cgroup on CPUs (every online one without -C); each
  // type's groups open on the cgroup's placements of its own CPUs only.
  const collect::Target cgroup{{}, {}, range(0, 15), {{"/app.slice", "/sys/fs/cgroup/app.slice"}}};
  const std::vector<std::vector<collect::CounterGroup>> by_type = groups_by_type(1, cgroup);
  ASSERT_EQ(by_type.size(), 2u);
  for (const collect::CounterGroup& group : by_type[0]) {
    EXPECT_EQ(group.cpus, range(0, 7));
    EXPECT_EQ(pmu_of(group), "cpu_core");
  }
  for (const collect::CounterGroup& group : by_type[1]) {
    EXPECT_EQ(group.cpus, range(8, 15));
    EXPECT_EQ(pmu_of(group), "cpu_atom");
  }
  // With -C 4-11 the cgroup is counted on 4-7 by the P-cores' groups, 8-11 by the E-cores'.
  const collect::Target some_cpus{{}, {}, range(4, 11), cgroup.cgroups};
  const std::vector<std::vector<collect::CounterGroup>> some = groups_by_type(1, some_cpus);
  EXPECT_EQ(some[0].front().cpus, range(4, 7));
  EXPECT_EQ(some[1].front().cpus, range(8, 11));
}

TEST(CoreTypeCounts, EachTypeGetsItsOwnEventsBack) {
  counts::Sample both;
  both.duration_s = 2;
  both.events[counts::EventKey("cpu_core/INST_RETIRED.ANY/")] = {100, 10, 10};
  both.events[counts::EventKey("cpu_atom/INST_RETIRED.ANY/")] = {30, 10, 5};
  both.events[counts::EventKey("cpu_atom/CPU_CLK_UNHALTED.CORE/", 2)] = {50, 10, 10};
  const counts::Sample e_cores = core_type_counts(both, "cpu_atom");
  ASSERT_EQ(e_cores.events.size(), 2u);
  EXPECT_DOUBLE_EQ(e_cores.find("INST_RETIRED.ANY")->value, 30);
  EXPECT_EQ(e_cores.find("INST_RETIRED.ANY")->time_running, 5u);
  EXPECT_DOUBLE_EQ(e_cores.find("CPU_CLK_UNHALTED.CORE", 2)->value, 50);
  EXPECT_DOUBLE_EQ(e_cores.duration_s, 2);
  const counts::Sample p_cores = core_type_counts(both, "cpu_core");
  ASSERT_EQ(p_cores.events.size(), 1u);
  EXPECT_DOUBLE_EQ(p_cores.find("INST_RETIRED.ANY")->value, 100);

  counts::Sample p_only;
  p_only.events[counts::EventKey("cpu_core/INST_RETIRED.ANY/")] = {7, 1, 1};
  const std::vector<counts::Place> places = {{"CPU0", p_only}, {"CPU8", both}};
  const std::vector<counts::Place> e_places = core_type_places(places, "cpu_atom");
  ASSERT_EQ(e_places.size(), 1u);
  EXPECT_EQ(e_places[0].label, "CPU8");
  EXPECT_EQ(core_type_places(places, "cpu_core").size(), 2u);
}

TEST_F(HybridStat, AModelOfAnotherPmuIsRefused) {
  const model::Model one_kind = model::select_model(kModels, {}, "spr");
  try {
    core_type_placement(cpu, one_kind, {});
    FAIL() << "a model without a core type was placed";
  } catch (const Error& error) {
    EXPECT_STREQ(error.what(),
                 "model spr counts on the PMU 'cpu', and this CPU's core PMUs are cpu_atom, cpu_core; use the "
                 "model of this CPU (leave out --cpu and --model)");
  }
  cpu::CpuInfo not_hybrid = cpu;
  not_hybrid.pmus.clear();
  EXPECT_THROW(core_type_placement(not_hybrid, models[1], {}), Error);
  EXPECT_FALSE(plans_by_core_type(not_hybrid, models[1]));
}

}  // namespace
}  // namespace topdown::settings
