// `stat --root DIR` on copies of virtual machines' /sys and /proc
// (tests/data/sysfs-vm-*): the plan counts only what that machine counts,
// judged by its sysfs, says what it leaves out, and where the NMI watchdog
// is on plans one counter fewer.
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <functional>
#include <string>

#include "events/model_resolver.h"
#include "schedule/plan.h"
#include "settings/stat.h"

namespace topdown::settings {
namespace {

const std::filesystem::path kData = std::filesystem::path(TOPDOWN_SOURCE_DIR) / "tests/data";
const std::filesystem::path kModels = std::filesystem::path(TOPDOWN_SOURCE_DIR) / "models";

struct FixturePlan {
  cpu::CpuInfo cpu;
  model::Model model;
  StatPlanning planning;
  schedule::Plan plan;
};

// `intel_model`: another Intel model number for the fixture's CPU (0: its own).
FixturePlan plan_on(const std::string& fixture, int level = 2, bool all_info = false,
                    Toggle perf_metrics = Toggle::Auto, unsigned intel_model = 0) {
  FixturePlan out{cpu::detect(kData / fixture / "sys", kData / fixture / "proc", cpu::CounterCheck::Skip), {}, {}, {}};
  if (intel_model != 0) out.cpu.id.model = intel_model;
  out.model = model::select_model(kModels, out.cpu.id);
  const events::Resolver resolver(events::resolver_config(out.model, out.cpu));
  StatOptions options;
  options.report.level = level;
  options.all_info = all_info;
  options.perf_metrics = perf_metrics;
  out.planning = plan_stat(options, out.cpu, out.model, {});
  find_countable(out.planning, perf_metrics, out.cpu, out.model, resolver, schedule::TrialOpen());
  out.plan = schedule::make_plan(out.model, out.planning.vars, out.planning.selection, resolver, out.planning.budget,
                                 out.planning.countable);
  return out;
}

bool plans_event(const schedule::Plan& plan, const std::function<bool(const events::Encoding&)>& match) {
  return std::any_of(plan.groups.begin(), plan.groups.end(), [&](const schedule::Group& group) {
    return std::any_of(group.events.begin(), group.events.end(), match);
  });
}

TEST(VmPlan, KvmGuestOnSapphireRapidsPlansWithoutPerfMetricsUncoreOrPebs) {
  const FixturePlan fixture = plan_on("sysfs-vm-kvm-spr", 3, true);
  EXPECT_EQ(fixture.model.name, "spr");
  EXPECT_TRUE(fixture.planning.this_machine);
  EXPECT_FALSE(fixture.planning.vars.perf_metrics);
  // The model's 8 counters (SMT off), one held by the NMI watchdog.
  EXPECT_EQ(fixture.planning.budget.general, 7);
  EXPECT_TRUE(fixture.planning.budget.nmi_watchdog);
  EXPECT_NE(nmi_watchdog_note(fixture.planning.budget).find("sysctl kernel.nmi_watchdog=0"), std::string::npos);
  EXPECT_FALSE(plans_event(fixture.plan, [](const events::Encoding& e) { return e.topdown_metric; }));
  EXPECT_FALSE(plans_event(fixture.plan, [](const events::Encoding& e) { return e.uncore; }));
  EXPECT_FALSE(plans_event(fixture.plan, [](const events::Encoding& e) { return e.precise > 0; }));
  for (const schedule::Group& group : fixture.plan.groups) {
    EXPECT_LE(group.general_counters_used(fixture.plan.budget), 7);
  }
  ASSERT_TRUE(fixture.plan.not_counted.count("Info_System_DRAM_BW_Use"));
  EXPECT_NE(fixture.plan.not_counted.at("Info_System_DRAM_BW_Use").find("no uncore_imc PMU in sysfs"),
            std::string::npos);
  // Nodes of general-counter events are planned; the rest say which class they lack.
  for (const char* node : {"L1_Bound", "DSB_Switches", "Divider"}) {
    EXPECT_FALSE(fixture.plan.not_counted.count(node)) << node;
  }
  for (const auto& [node, why] : fixture.plan.not_counted) {
    EXPECT_TRUE(why.starts_with("this machine's PMU does not count ")) << node << ": " << why;
  }
}

TEST(VmPlan, ArchitecturalEventsOnlyGuestCountsOnlyThose) {
  const FixturePlan fixture = plan_on("sysfs-vm-arch-only", 2, true);
  EXPECT_FALSE(fixture.planning.vars.perf_metrics);
  EXPECT_FALSE(fixture.plan.groups.empty());
  for (const schedule::Group& group : fixture.plan.groups) {
    for (const events::Encoding& event : group.events) {
      EXPECT_EQ(schedule::event_class(event), std::nullopt) << event.name;
    }
  }
  ASSERT_TRUE(fixture.plan.not_counted.count("Frontend_Bound"));
  EXPECT_NE(fixture.plan.not_counted.at("Frontend_Bound").find("generic_arch_v2+"), std::string::npos);
  // IPC needs instructions and cycles alone.
  EXPECT_FALSE(fixture.plan.not_counted.count("Info_Thread_IPC"));
  EXPECT_NE(std::find(fixture.plan.nodes.begin(), fixture.plan.nodes.end(), "Info_Thread_IPC"),
            fixture.plan.nodes.end());
}

TEST(VmPlan, GuestWithoutTheExtraTermsKeepsTheRestOfTheTree) {
  const FixturePlan fixture = plan_on("sysfs-vm-no-terms", 4);
  EXPECT_EQ(fixture.model.name, "icx");
  EXPECT_TRUE(fixture.planning.vars.perf_metrics);
  EXPECT_TRUE(plans_event(fixture.plan, [](const events::Encoding& e) { return e.topdown_metric; }));
  EXPECT_FALSE(
      plans_event(fixture.plan, [](const events::Encoding& e) { return schedule::term_class(e.name).has_value(); }));
  bool term_reason = false;
  for (const auto& [node, why] : fixture.plan.not_counted) {
    term_reason |= why.find("term missing") != std::string::npos;
  }
  EXPECT_TRUE(term_reason);
  EXPECT_FALSE(fixture.plan.not_counted.count("Frontend_Bound"));
  EXPECT_FALSE(fixture.plan.not_counted.count("Retiring"));
  EXPECT_FALSE(fixture.plan.not_counted.count("L1_Bound"));
}

TEST(VmPlan, Zen4GuestWithoutPerfMonV2PlansOnItsSixCounters) {
  const FixturePlan fixture = plan_on("sysfs-vm-zen4", 2);
  EXPECT_EQ(fixture.model.name, "zen4");
  EXPECT_EQ(fixture.planning.budget.general, 6);
  EXPECT_FALSE(fixture.planning.budget.nmi_watchdog);
  EXPECT_TRUE(fixture.plan.not_counted.empty());
  EXPECT_FALSE(fixture.plan.groups.empty());
}

// The kernel has no topdown-* events (a Sapphire Rapids whose kernel lacks
// them): the default plan reads no PERF_METRICS and computes level 1 from
// the general counters; --perf-metrics on is honoured, and its nodes are
// n/a with the reason.
TEST(VmPlan, PerfMetricsDefaultFollowsThatMachine) {
  const FixturePlan automatic = plan_on("sysfs-spr", 2, false, Toggle::Auto, 0x7E);  // Ice Lake's model
  EXPECT_EQ(automatic.model.name, "icl");
  EXPECT_FALSE(automatic.planning.vars.perf_metrics);
  EXPECT_FALSE(plans_event(automatic.plan, [](const events::Encoding& e) { return e.topdown_metric; }));
  EXPECT_FALSE(automatic.plan.not_counted.count("Retiring"));
  const FixturePlan forced = plan_on("sysfs-spr", 2, false, Toggle::On, 0x7E);
  EXPECT_TRUE(forced.planning.vars.perf_metrics);
  ASSERT_TRUE(forced.plan.not_counted.count("Retiring"));
  EXPECT_NE(forced.plan.not_counted.at("Retiring").find("no topdown-* events in sysfs"), std::string::npos);
}

TEST(VmPlan, CountersGivenOnTheCommandLineWinOverTheWatchdog) {
  const cpu::CpuInfo cpu =
      cpu::detect(kData / "sysfs-vm-kvm-spr/sys", kData / "sysfs-vm-kvm-spr/proc", cpu::CounterCheck::Skip);
  const model::Model model = model::select_model(kModels, cpu.id);
  const schedule::CounterBudget budget = counter_budget(cpu, model, false, 8);
  EXPECT_EQ(budget.general, 8);
  EXPECT_FALSE(budget.nmi_watchdog);
  EXPECT_EQ(nmi_watchdog_note(budget), "");
}

}  // namespace
}  // namespace topdown::settings
