// stat on an Arm big.LITTLE system counts each core kind as hybrid Intel
// counts each core type: the fixture's C1-Pro cores (CPUs 0-5) on
// armv8_pmuv3_0 (type 10), its C1-Ultra cores (CPUs 6-7) on armv8_pmuv3_1
// (type 11), each kind's tree with its own model.
#include <gtest/gtest.h>

#include <filesystem>

#include "events/model_resolver.h"
#include "schedule/plan.h"
#include "settings/hybrid.h"
#include "settings/stat.h"
#include "support/temp_tree.h"

namespace topdown::settings {
namespace {

const std::filesystem::path kModels = std::filesystem::path(TOPDOWN_SOURCE_DIR) / "models";
const std::filesystem::path kFixture = std::filesystem::path(TOPDOWN_SOURCE_DIR) / "tests/data/sysfs-biglittle";

std::vector<int> range(int first, int last) {
  std::vector<int> indexes;
  for (int index = first; index <= last; ++index) indexes.push_back(index);
  return indexes;
}

class BigLittleStat : public ::testing::Test {
 protected:
  cpu::CpuInfo cpu = cpu::detect(kFixture / "sys", kFixture / "proc", cpu::CounterCheck::Skip);
  std::vector<model::Model> models = model::with_core_kinds(model::select_model(kModels, cpu.id), cpu, kModels);

  schedule::Plan plan_of(const model::Model& model) const {
    const events::Resolver resolver(events::resolver_config(model, cpu));
    const StatPlanning planning = plan_stat(StatOptions{}, cpu, model, {});
    return schedule::make_plan(model, planning.vars, planning.selection, resolver, planning.budget);
  }
};

TEST_F(BigLittleStat, EachCoreKindHasItsModelOnItsPmu) {
  ASSERT_EQ(models.size(), 2u);
  EXPECT_EQ(models[0].name, "arm-c1-ultra");
  EXPECT_EQ(models[0].pmu, "armv8_pmuv3_1");
  EXPECT_EQ(models[0].core_type, "Arm C1 Ultra");
  EXPECT_EQ(models[1].name, "arm-c1-pro");
  EXPECT_EQ(models[1].pmu, "armv8_pmuv3_0");
  EXPECT_EQ(models[1].core_type, "Arm C1 Pro");
  // The little cores' model chosen by name gives the same kinds, its own
  // first (a file of that kind alone is read with it).
  const auto from_pro = model::with_core_kinds(model::select_model(kModels, cpu.id, "arm-c1-pro"), cpu, kModels);
  ASSERT_EQ(from_pro.size(), 2u);
  EXPECT_EQ(from_pro[0].name, "arm-c1-pro");
  EXPECT_EQ(from_pro[0].pmu, "armv8_pmuv3_0");
  EXPECT_EQ(from_pro[1].name, "arm-c1-ultra");
  EXPECT_EQ(from_pro[1].pmu, "armv8_pmuv3_1");
}

TEST_F(BigLittleStat, AMachineOfOneKindKeepsItsOneModel) {
  const std::filesystem::path v2 = std::filesystem::path(TOPDOWN_SOURCE_DIR) / "tests/data/sysfs-neoverse-v2";
  const cpu::CpuInfo one_kind = cpu::detect(v2 / "sys", v2 / "proc", cpu::CounterCheck::Skip);
  const auto one_model = model::with_core_kinds(model::select_model(kModels, one_kind.id), one_kind, kModels);
  ASSERT_EQ(one_model.size(), 1u);
  EXPECT_EQ(one_model[0].name, "neoverse-v2");
  EXPECT_TRUE(one_model[0].pmu.empty());
  EXPECT_FALSE(plans_by_core_type(one_kind, one_model[0]));
}

TEST_F(BigLittleStat, EachKindOpensOnItsPmuTypeAndCpus) {
  ASSERT_EQ(models.size(), 2u);
  const collect::Target command{{"./app"}, {}, {}, {}};
  const CoreTypePlacement big = core_type_placement(cpu, models[0], command);
  EXPECT_EQ(big.core_type, "Arm C1 Ultra");
  EXPECT_EQ(big.pmu, "armv8_pmuv3_1");
  EXPECT_EQ(big.pmu_type, 11);
  EXPECT_EQ(big.cpus, range(6, 7));
  const CoreTypePlacement little = core_type_placement(cpu, models[1], command);
  EXPECT_EQ(little.pmu, "armv8_pmuv3_0");
  EXPECT_EQ(little.pmu_type, 10);
  EXPECT_EQ(little.cpus, range(0, 5));
  const collect::Target some_cpus{{}, {}, {4, 5, 6}, {}};
  EXPECT_EQ(core_type_placement(cpu, models[0], some_cpus).cpus, range(6, 6));
  EXPECT_EQ(core_type_placement(cpu, models[1], some_cpus).cpus, range(4, 5));
}

// Six event counters without the health check, and the cycle counter; every
// event on the kind's own PMU type.
TEST_F(BigLittleStat, EachKindPlansOnItsPmu) {
  ASSERT_EQ(models.size(), 2u);
  for (const model::Model& model : models) {
    SCOPED_TRACE(model.name);
    EXPECT_TRUE(plans_by_core_type(cpu, model));
    const schedule::CounterBudget budget = counter_budget(cpu, model, false, std::nullopt);
    EXPECT_EQ(budget.general, 6);
    EXPECT_EQ(budget.fixed, 1);
    const schedule::Plan plan = plan_of(model);
    ASSERT_FALSE(plan.groups.empty());
    const uint32_t type = model.pmu == "armv8_pmuv3_1" ? 11u : 10u;
    for (const schedule::Group& group : plan.groups) {
      EXPECT_EQ(group.pmu, model.pmu);
      EXPECT_LE(group.general_counters_used(budget), 6);
      for (const events::Encoding& event : group.events) {
        EXPECT_EQ(event.type, type) << event.name;
        EXPECT_EQ(event.perf_spelling().rfind(model.pmu + "/", 0), 0u) << event.perf_spelling();
      }
    }
  }
}

TEST_F(BigLittleStat, EachKindsGroupsAreNamedForItsPmu) {
  ASSERT_EQ(models.size(), 2u);
  const schedule::Plan plan = plan_of(models[1]);
  const collect::Target all_cpus{{}, {}, range(0, 7), {}};
  const CountedGroups counted = counted_groups(plan, aggregate::View::Global, all_cpus);
  const std::vector<collect::CounterGroup> groups =
      core_type_groups(counted.groups, core_type_placement(cpu, models[1], all_cpus));
  ASSERT_EQ(groups.size(), counted.groups.size());
  for (size_t g = 0; g < groups.size(); ++g) {
    EXPECT_EQ(groups[g].cpus, range(0, 5));
    for (size_t e = 0; e < groups[g].events.size(); ++e) {
      EXPECT_EQ(groups[g].events[e].name, "armv8_pmuv3_0/" + counted.groups[g].events[e].name + "/");
      EXPECT_EQ(groups[g].events[e].type, 10u);
    }
  }
}

// A copy of the fixture, changed by the test.
class BigLittleVariant : public ::testing::Test {
 protected:
  BigLittleVariant() { std::filesystem::copy(kFixture, tree.root(), std::filesystem::copy_options::recursive); }
  cpu::CpuInfo detect() const {
    return cpu::detect(tree.root() / "sys", tree.root() / "proc", cpu::CounterCheck::Skip);
  }
  void rename_pmu(const std::string& from, const std::string& to) const {
    const std::filesystem::path devices = tree.root() / "sys/bus/event_source/devices";
    std::filesystem::rename(devices / from, devices / to);
  }
  testing::TempTree tree;
};

// Little cores of a part no model fits (0xD05, r1p0): the big cores are
// still counted on their own PMU and CPUs, and the little ones are named.
TEST_F(BigLittleVariant, AKindWithoutAModelIsNamedAndTheOtherCountsOnItsOwnPmu) {
  for (int index = 0; index <= 5; ++index) {
    tree.write("sys/devices/system/cpu/cpu" + std::to_string(index) + "/regs/identification/midr_el1",
               "0x00000000411fd050\n");
  }
  const cpu::CpuInfo cpu = detect();
  ASSERT_EQ(cpu.core_kinds.size(), 2u);
  const std::vector<model::Model> models = model::with_core_kinds(model::select_model(kModels, cpu.id), cpu, kModels);
  ASSERT_EQ(models.size(), 1u);
  EXPECT_EQ(models[0].name, "arm-c1-ultra");
  EXPECT_EQ(models[0].pmu, "armv8_pmuv3_1");

  const std::vector<model::UncountedKind> uncounted = model::uncounted_core_kinds(cpu, models);
  ASSERT_EQ(uncounted.size(), 1u);
  EXPECT_EQ(uncounted[0].kind.cpus, range(0, 5));
  EXPECT_EQ(uncounted[0].why, model::UncountedKind::Why::NoModel);
  EXPECT_EQ(uncounted[0].pmu, "armv8_pmuv3_0");
  EXPECT_EQ(uncounted[0].kind.id.model, 0xD05u);

  const events::Resolver resolver(events::resolver_config(models[0], cpu));
  const StatPlanning planning = plan_stat(StatOptions{}, cpu, models[0], {});
  const std::vector<CoreTypePlan> types{
      {models[0], planning.vars,
       schedule::make_plan(models[0], planning.vars, planning.selection, resolver, planning.budget)}};
  ASSERT_TRUE(counts_core_types(cpu, types)) << "the one kind counted opens on its CPUs alone";
  const PlacedCoreTypes placed =
      place_core_types(cpu, types, aggregate::View::Global, collect::Target{{}, {}, range(0, 7), {}});
  ASSERT_EQ(placed.types.size(), 1u);
  EXPECT_EQ(placed.types[0].placement.cpus, range(6, 7));
  for (const collect::CounterGroup& group : placed.groups) {
    EXPECT_EQ(group.cpus, range(6, 7));
    for (const events::Encoding& event : group.events) {
      EXPECT_EQ(event.type, 11u) << event.name;
      EXPECT_EQ(event.name.rfind("armv8_pmuv3_1/", 0), 0u) << event.name;
    }
  }
}

TEST_F(BigLittleVariant, EveryKindCountedLeavesNoneOut) {
  const cpu::CpuInfo cpu = detect();
  EXPECT_TRUE(
      model::uncounted_core_kinds(cpu, model::with_core_kinds(model::select_model(kModels, cpu.id), cpu, kModels))
          .empty());
  // Another CPU's model is not bound to these kinds: nothing to say of them.
  EXPECT_TRUE(model::uncounted_core_kinds(cpu, {model::select_model(kModels, cpu.id, "neoverse-v2")}).empty());
}

// Core PMUs of names no rule knows (a device tree may call them anything):
// the probe knows them by their cpus lists, and the scheduler by the
// probe's list, so each kind's groups keep to its counters.
TEST_F(BigLittleVariant, CorePmusOfAnyNameAreCoresForTheScheduler) {
  const cpu::CpuInfo armv8_named = cpu::detect(kFixture / "sys", kFixture / "proc", cpu::CounterCheck::Skip);
  rename_pmu("armv8_pmuv3_0", "little_cluster_pmu");
  rename_pmu("armv8_pmuv3_1", "big_cluster_pmu");
  const cpu::CpuInfo cpu = detect();
  EXPECT_EQ(cpu.core_pmu_names(), (std::vector<std::string>{"big_cluster_pmu", "little_cluster_pmu"}));
  const auto models = model::with_core_kinds(model::select_model(kModels, cpu.id), cpu, kModels);
  const auto named_models = model::with_core_kinds(model::select_model(kModels, armv8_named.id), armv8_named, kModels);
  ASSERT_EQ(models.size(), 2u);
  ASSERT_EQ(named_models.size(), 2u);
  EXPECT_EQ(models[0].pmu, "big_cluster_pmu");
  EXPECT_EQ(models[1].pmu, "little_cluster_pmu");
  for (size_t m = 0; m < models.size(); ++m) {
    SCOPED_TRACE(models[m].name);
    const auto plan_on = [](const cpu::CpuInfo& machine, const model::Model& model) {
      const events::Resolver resolver(events::resolver_config(model, machine));
      const StatPlanning planning = plan_stat(StatOptions{}, machine, model, {});
      return schedule::make_plan(model, planning.vars, planning.selection, resolver, planning.budget);
    };
    const schedule::Plan plan = plan_on(cpu, models[m]);
    const schedule::Plan named_plan = plan_on(armv8_named, named_models[m]);
    EXPECT_EQ(plan.budget.core_pmus, cpu.core_pmu_names());
    ASSERT_EQ(plan.groups.size(), named_plan.groups.size());
    EXPECT_EQ(plan.multiplexed(), named_plan.multiplexed());
    for (size_t g = 0; g < plan.groups.size(); ++g) {
      const schedule::Group& group = plan.groups[g];
      EXPECT_EQ(group.pmu, models[m].pmu);
      EXPECT_EQ(group.events.size(), named_plan.groups[g].events.size());
      const int used = group.general_counters_used(plan.budget);
      EXPECT_EQ(used, named_plan.groups[g].general_counters_used(named_plan.budget));
      EXPECT_GT(used, 0);
      EXPECT_LE(used, 6);
      // Known by name alone (a plan for another machine), these PMUs would
      // not be cores' and would take no counters.
      schedule::CounterBudget by_name = plan.budget;
      by_name.core_pmus.clear();
      EXPECT_EQ(group.general_counters_used(by_name), 0);
    }
  }
}

}  // namespace
}  // namespace topdown::settings
