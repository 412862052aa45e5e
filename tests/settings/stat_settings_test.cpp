#include <gtest/gtest.h>

#include <filesystem>

#include "common/error.h"
#include "settings/stat.h"
#include "support/error_of.h"
#include "support/temp_tree.h"

namespace topdown::settings {
namespace {

using topdown::testing::error_of;

const std::filesystem::path kModels = std::filesystem::path(TOPDOWN_SOURCE_DIR) / "models";

// An Ice Lake client (family 6, model 0x7E) with SMT on, 4 counters that
// really count and the kernel's PERF_METRICS events.
cpu::CpuInfo ice_lake() {
  cpu::CpuInfo cpu;
  cpu.id.vendor = cpu::Vendor::Intel;
  cpu.id.family = 6;
  cpu.id.model = 0x7E;
  cpu.smt_enabled = true;
  cpu.online_cpus = 8;
  cpu.reported_counters = 8;
  cpu.working_counters = 4;
  cpu.topdown_metrics = true;
  return cpu;
}

cpu::CpuInfo zen4() {
  cpu::CpuInfo cpu;
  cpu.id.vendor = cpu::Vendor::Amd;
  cpu.id.family = 0x19;
  cpu.id.model = 0x11;
  cpu.smt_enabled = false;
  cpu.online_cpus = 16;
  cpu.reported_counters = 6;
  cpu.working_counters = 6;
  return cpu;
}

class StatSettings : public ::testing::Test {
 protected:
  model::Model icl_ = model::load_model(kModels / "icl.model");
  model::Model hsw_ = model::load_model(kModels / "hsw.model");
  StatOptions options_;
};

TEST_F(StatSettings, ThisMachinesFactsUnlessTheOptionsSay) {
  ASSERT_TRUE(icl_.matches(ice_lake().id));
  options_.report.level = 3;
  options_.all_info = true;
  options_.extra_events = {"instructions"};
  StatPlanning planning = plan_stat(options_, ice_lake(), icl_, {});
  EXPECT_TRUE(planning.this_machine);
  EXPECT_TRUE(planning.vars.smt_enabled);
  EXPECT_TRUE(planning.vars.perf_metrics);
  EXPECT_EQ(planning.vars.online_cpus, 8);
  EXPECT_EQ(planning.selection.max_level, 3);
  EXPECT_TRUE(planning.selection.all_info);
  EXPECT_EQ(planning.selection.extra_events, std::vector<std::string>{"instructions"});
  EXPECT_EQ(planning.budget.general, 4) << "the health check's";

  options_.smt = Toggle::Off;
  options_.perf_metrics = Toggle::Off;
  options_.counters = 2;
  planning = plan_stat(options_, ice_lake(), icl_, {});
  EXPECT_FALSE(planning.vars.smt_enabled);
  EXPECT_FALSE(planning.vars.perf_metrics);
  EXPECT_EQ(planning.budget.general, 2);
}

TEST_F(StatSettings, AnotherCpusModelPlansAsThatCpu) {
  ASSERT_FALSE(hsw_.matches(zen4().id));
  options_.smt = Toggle::On;
  StatPlanning planning = plan_stat(options_, zen4(), hsw_, {});
  EXPECT_FALSE(planning.this_machine);
  EXPECT_TRUE(planning.vars.smt_enabled);
  EXPECT_TRUE(planning.vars.perf_metrics) << "as the other CPU's kernel would";
  EXPECT_EQ(planning.vars.online_cpus, 0) << "this machine's CPUs say nothing about the other";
  EXPECT_EQ(planning.budget.general, static_cast<int>(hsw_.counters.general_for(true)));
  EXPECT_EQ(counter_budget(zen4(), hsw_, false, std::nullopt).general,
            static_cast<int>(hsw_.counters.general_for(false)));
  EXPECT_EQ(counter_budget(zen4(), hsw_, false, 3).general, 3);
  model::Model no_fixed = hsw_;
  no_fixed.counters.fixed = 0;
  EXPECT_EQ(counter_budget(zen4(), no_fixed, false, std::nullopt).fixed, 3) << "Intel's three for an Intel model";
}

// An Arm model on an x86 machine: this machine's counters say nothing of
// the Arm CPU's, which counts on six event counters and its cycle counter.
TEST_F(StatSettings, AnArmModelElsewherePlansForSixEventCountersAndTheCycleCounter) {
  const model::Model v2 = model::load_model(kModels / "neoverse-v2.model");
  const schedule::CounterBudget budget = counter_budget(zen4(), v2, false, std::nullopt);
  EXPECT_EQ(budget.general, 6);
  EXPECT_EQ(budget.fixed, 1);
  EXPECT_EQ(counter_budget(zen4(), v2, false, 4).general, 4) << "--counters still decides";
}

TEST(UsePerfMetrics, OnOrOffWhenAskedElseWhatTheKernelOffers) {
  const model::Model icl = model::load_model(kModels / "icl.model");
  cpu::CpuInfo old_kernel = ice_lake();
  old_kernel.topdown_metrics = false;
  EXPECT_FALSE(use_perf_metrics(Toggle::Auto, old_kernel, icl));
  EXPECT_TRUE(use_perf_metrics(Toggle::On, old_kernel, icl));
  EXPECT_TRUE(use_perf_metrics(Toggle::Auto, ice_lake(), icl));
  EXPECT_FALSE(use_perf_metrics(Toggle::Off, ice_lake(), icl));
  EXPECT_TRUE(use_perf_metrics(Toggle::Auto, zen4(), icl));
}

TEST_F(StatSettings, AnotherVendorsModelCannotCount) {
  options_.cpu = "icl";
  options_.command = {"true"};
  EXPECT_EQ(error_of([&] { check_countable(options_, zen4(), icl_); }),
            "--cpu icl chose a model for Intel CPUs (" + icl_.title +
                "), whose events this AMD CPU cannot count; use --print-perf or --print-groups with it, or leave "
                "out --cpu");
  EXPECT_EQ(error_of([&] { check_countable(options_, ice_lake(), icl_); }), "");
}

TEST_F(StatSettings, SomethingMustBeCounted) {
  const std::string nothing =
      "no command to measure; usage: topdown stat [options] -- CMD [ARGS...] (or -p PID, or -a)";
  EXPECT_EQ(error_of([&] { check_countable(options_, ice_lake(), icl_); }), nothing);
  options_.pids = {42};
  EXPECT_EQ(error_of([&] { check_countable(options_, ice_lake(), icl_); }), "");
  options_.pids.clear();
  options_.cpu_list = "0";
  EXPECT_EQ(error_of([&] { check_countable(options_, ice_lake(), icl_); }), "");
  options_.cpu_list.clear();
  options_.cgroups = {"/system.slice"};  // counted on every CPU
  EXPECT_EQ(error_of([&] { check_countable(options_, ice_lake(), icl_); }), "");
}

TEST_F(StatSettings, NoMultiplexHasNoIntervals) {
  options_.no_multiplex = true;
  EXPECT_EQ(error_of([&] { check_live_options(options_); }), "");
  options_.interval_ms = 100;
  EXPECT_EQ(error_of([&] { check_live_options(options_); }),
            "--no-multiplex reruns the command once per counter group, so its intervals would not line up; leave "
            "out -I or --no-multiplex");
}

TEST_F(StatSettings, CgroupsAreNotColumns) {
  options_.report.columns = true;
  EXPECT_EQ(error_of([&] { check_live_options(options_); }), "");
  options_.cgroups = {"/a", "/b"};
  EXPECT_EQ(error_of([&] { check_live_options(options_); }),
            "--columns shows one line per record, not one per cgroup; leave out --columns or -G");
}

TEST_F(StatSettings, TheTargetIsTheCommandProcessesOrCpus) {
  testing::TempTree sys;
  sys.write("online", "0-3\n");
  options_.command = {"./app", "x"};
  options_.pids = {7, 9};
  collect::Target target = stat_target(options_, sys.root());
  EXPECT_EQ(target.command, (std::vector<std::string>{"./app", "x"}));
  EXPECT_EQ(target.pids, (std::vector<pid_t>{7, 9}));
  EXPECT_TRUE(target.cpus.empty());
  options_.system_wide = true;
  EXPECT_EQ(stat_target(options_, sys.root()).cpus, (std::vector<int>{0, 1, 2, 3}));
  options_.cpu_list = "1,3";
  EXPECT_EQ(stat_target(options_, sys.root()).cpus, (std::vector<int>{1, 3}));
}

// Two counters on one process or CPU would count it twice (CPUs_Utilized 2 on one thread).
TEST_F(StatSettings, AProcessOrCpuGivenTwiceIsCountedOnce) {
  testing::TempTree sys;
  sys.write("online", "0-3\n");
  options_.pids = {9, 7, 9, 7};
  EXPECT_EQ(stat_target(options_, sys.root()).pids, (std::vector<pid_t>{9, 7}));
  options_.pids.clear();
  options_.cpu_list = "1,1,0-1";
  EXPECT_EQ(stat_target(options_, sys.root()).cpus, (std::vector<int>{0, 1}));
}

TEST_F(StatSettings, CgroupsAreCountedOnEveryCpuOrThoseOfC) {
  testing::TempTree sys;
  sys.write("online", "0-3\n");
  options_.pids.clear();
  options_.cgroups = {"/"};  // the root cgroup: there whenever cgroups are mounted
  collect::Target target;
  try {
    target = stat_target(options_, sys.root());
  } catch (const Error& error) {
    GTEST_SKIP() << "this machine counts no cgroups: " << error.what();
  }
  EXPECT_EQ(target.cpus, (std::vector<int>{0, 1, 2, 3}));
  ASSERT_EQ(target.cgroups.size(), 1u);
  EXPECT_EQ(target.cgroups[0].name, "/");
  options_.cpu_list = "2";
  EXPECT_EQ(stat_target(options_, sys.root()).cpus, (std::vector<int>{2}));
  // One cgroup given twice, in both spellings, is one report.
  options_.cgroups = {"/", "/", "/."};
  target = stat_target(options_, sys.root());
  ASSERT_EQ(target.cgroups.size(), 1u);
  EXPECT_EQ(target.cgroups[0].name, "/");
  options_.cgroups = {"/no/such/cgroup"};
  EXPECT_NE(error_of([&] { stat_target(options_, sys.root()); }).find("'/no/such/cgroup': no such cgroup"),
            std::string::npos);
}

TEST_F(StatSettings, UnitsNeedATargetThatSplitsIntoThem) {
  collect::Target command;
  command.command = {"true"};
  collect::Target processes;
  processes.pids = {42};
  collect::Target cpus;
  cpus.cpus = {0, 1};
  EXPECT_EQ(error_of([&] { check_unit_view(options_, command); }), "") << "one report needs no split";
  options_.per = aggregate::View::Core;
  EXPECT_EQ(error_of([&] { check_unit_view(options_, processes); }),
            "--per-core needs system-wide counting; add -a (every CPU) or -C LIST");
  EXPECT_EQ(error_of([&] { check_unit_view(options_, cpus); }), "");
  options_.per = aggregate::View::Thread;
  EXPECT_EQ(error_of([&] { check_unit_view(options_, command); }),
            "--per-thread cannot split a command: its threads and children are counted together; attach to it "
            "with -p PID or count every CPU with -a");
  EXPECT_EQ(error_of([&] { check_unit_view(options_, processes); }), "");
  options_.report.columns = true;
  EXPECT_EQ(error_of([&] { check_unit_view(options_, cpus); }),
            "--columns shows one line per record, not one per unit; leave out --columns or --per-thread");
}

TEST(CountedGroups, PercoreEventsOnlyWithUnitsOfCountedCpus) {
  events::Encoding cycles;
  cycles.name = "cycles";
  events::Encoding core_slots;
  core_slots.name = "slots:percore";
  core_slots.percore = true;
  schedule::Plan plan;
  plan.groups.push_back({"cpu", {cycles, core_slots}});
  plan.groups.push_back({"cpu", {core_slots}});
  collect::Target cpus;
  cpus.cpus = {0, 1};
  collect::Target processes;
  processes.pids = {42};

  CountedGroups left_out = counted_groups(plan, aggregate::View::Global, cpus);
  ASSERT_EQ(left_out.groups.size(), 1u) << "a group of :percore events alone is not opened";
  ASSERT_EQ(left_out.groups[0].events.size(), 1u);
  EXPECT_EQ(left_out.groups[0].events[0].name, "cycles");
  EXPECT_TRUE(left_out.core_wide_events.empty());
  EXPECT_EQ(counted_groups(plan, aggregate::View::Thread, processes).groups.size(), 1u);

  CountedGroups kept = counted_groups(plan, aggregate::View::Thread, cpus);
  ASSERT_EQ(kept.groups.size(), 2u);
  EXPECT_EQ(kept.groups[0].events.size(), 2u);
  EXPECT_EQ(kept.core_wide_events, (std::set<std::string, std::less<>>{"slots:percore"}));
}

TEST(RepeatSettings, RepeatNeedsACommandAlone) {
  auto message_of = [](const StatOptions& options) -> std::string {
    try {
      check_repeat_options(options);
    } catch (const Error& error) {
      return error.what();
    }
    return "";
  };
  StatOptions options;
  options.command = {"./app"};
  options.repeat = 5;
  EXPECT_EQ(message_of(options), "");
  options.no_multiplex = true;  // each group gets its N runs
  EXPECT_EQ(message_of(options), "");
  StatOptions timed = options;
  timed.interval_ms = 100;
  EXPECT_NE(message_of(timed).find("leave out -I or -r"), std::string::npos);
  StatOptions attached = options;
  attached.pids = {42};
  EXPECT_NE(message_of(attached).find("give a command instead"), std::string::npos);
  StatOptions everywhere = options;
  everywhere.system_wide = true;
  EXPECT_NE(message_of(everywhere).find("give a command instead"), std::string::npos);
  StatOptions cgroup = options;
  cgroup.cgroups = {"/system.slice"};
  EXPECT_NE(message_of(cgroup).find("give a command instead"), std::string::npos);
  StatOptions per_core = options;
  per_core.per = aggregate::View::Core;
  EXPECT_NE(message_of(per_core).find("leave out --per-*"), std::string::npos);
  StatOptions no_command = options;
  no_command.command.clear();
  EXPECT_NE(message_of(no_command).find("give the command to repeat"), std::string::npos);
  StatOptions once = timed;
  once.repeat = 1;  // -r 1 is a plain run
  EXPECT_EQ(message_of(once), "");
}

}  // namespace
}  // namespace topdown::settings
