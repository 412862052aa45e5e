// What a machine counts, class by class of event: sysfs first, then one
// trial open per class, and the plan leaves out the nodes that need a class
// the machine lacks, each with the reason.
#include <gtest/gtest.h>

#include <algorithm>
#include <cerrno>
#include <filesystem>
#include <map>
#include <string>
#include <vector>

#include "events/model_resolver.h"
#include "schedule/countable.h"
#include "schedule/plan.h"

namespace topdown::schedule {
namespace {

const std::filesystem::path kData = std::filesystem::path(TOPDOWN_SOURCE_DIR) / "tests/data";

events::Encoding core_event(std::string name, uint64_t config) {
  events::Encoding event;
  event.name = std::move(name);
  event.pmu = "cpu";
  event.config = config;
  return event;
}

TEST(EventClass, EachKindOfEventAPartialPmuMayLack) {
  EXPECT_EQ(event_class(core_event("CPU_CLK_UNHALTED.THREAD_P", 0x003C)), std::nullopt);
  EXPECT_EQ(event_class(core_event("BR_MISP_RETIRED.ALL_BRANCHES", 0x00C5)), std::nullopt);
  EXPECT_EQ(event_class(core_event("FRONTEND_RETIRED.DSB_MISS", 0x01C6)), EventClass::Frontend);
  EXPECT_EQ(event_class(core_event("OCR.DEMAND_DATA_RD.DRAM", 0x012A)), EventClass::OffcoreResponse);
  EXPECT_EQ(event_class(core_event("MEM_TRANS_RETIRED.LOAD_LATENCY_GT_128", 0x01CD)), EventClass::LoadLatency);
  EXPECT_EQ(event_class(core_event("UOPS_ISSUED.ANY", 0x01AE)), EventClass::NonArchitectural);
  events::Encoding precise = core_event("MEM_LOAD_RETIRED.L1_MISS:pp", 0x08D1);
  precise.precise = 2;
  EXPECT_EQ(event_class(precise), EventClass::Precise);
  events::Encoding field = core_event("PERF_METRICS.RETIRING", 0x8000);
  field.topdown_metric = true;
  EXPECT_EQ(event_class(field), EventClass::PerfMetrics);
  events::Encoding uncore = core_event("UNC_M_CAS_COUNT.RD", 0xCF05);
  uncore.pmu = "uncore_imc";
  uncore.uncore = true;
  EXPECT_EQ(event_class(uncore), EventClass::Uncore);
  events::Encoding software = core_event("task-clock", 1);
  software.pmu = "software";
  software.type = PERF_TYPE_SOFTWARE;
  EXPECT_EQ(event_class(software), std::nullopt);
}

cpu::CpuInfo kvm_spr() {
  return cpu::detect(kData / "sysfs-vm-kvm-spr/sys", kData / "sysfs-vm-kvm-spr/proc", cpu::CounterCheck::Skip);
}

// The KVM guest's sysfs has the frontend term, but (as under VMware, pmu-tools
// #526) opening a FRONTEND_RETIRED event fails: one trial, and the class goes.
TEST(Countable, ATrialOpenThatFailsLeavesItsClassOut) {
  const cpu::CpuInfo cpu = kvm_spr();
  std::map<std::string, int> trials;
  const TrialOpen open = [&](const events::Encoding& event) {
    ++trials[event.name];
    return event.name.starts_with("FRONTEND_RETIRED.") ? EOPNOTSUPP : 0;
  };
  const std::vector<events::Encoding> needed = {
      core_event("FRONTEND_RETIRED.DSB_MISS", 0x01C6), core_event("FRONTEND_RETIRED.ITLB_MISS", 0x01C6),
      core_event("UOPS_ISSUED.ANY", 0x01AE), core_event("INST_RETIRED.ANY_P", 0x00C0)};
  const Countable countable = Countable::of_machine(cpu, needed, open);
  // One trial per class; the architectural event needs none.
  EXPECT_EQ(trials, (std::map<std::string, int>{{"FRONTEND_RETIRED.DSB_MISS", 1}, {"UOPS_ISSUED.ANY", 1}}));
  EXPECT_EQ(countable.why_not(needed[1]),
            "this machine's PMU does not count FRONTEND_RETIRED.*: opening FRONTEND_RETIRED.DSB_MISS failed "
            "(Operation not supported), a virtual machine?");
  EXPECT_EQ(countable.why_not(needed[2]), std::nullopt);
  EXPECT_EQ(countable.counting(), (std::vector<std::string>{"model-specific events"}));
}

TEST(Countable, PermissionRefusedSaysNothingOfThePmu) {
  const TrialOpen refused = [](const events::Encoding&) { return EACCES; };
  const Countable countable =
      Countable::of_machine(kvm_spr(), {core_event("FRONTEND_RETIRED.DSB_MISS", 0x01C6)}, refused);
  EXPECT_TRUE(countable.everything());
}

TEST(Countable, SysfsAloneJudgesACopyOfAnotherMachine) {
  events::Encoding uncore = core_event("UNC_M_CAS_COUNT.RD", 0xCF05);
  uncore.pmu = "uncore_imc";
  uncore.uncore = true;
  uncore.type = events::Encoding::kAbsentPmu;
  events::Encoding field = core_event("PERF_METRICS.RETIRING", 0x8000);
  field.topdown_metric = true;
  events::Encoding precise = core_event("MEM_LOAD_RETIRED.L1_MISS:pp", 0x08D1);
  precise.precise = 2;
  const Countable countable = Countable::of_machine(kvm_spr(), {uncore, field, precise}, TrialOpen());
  EXPECT_EQ(countable.why_not(uncore),
            "this machine's PMU does not count uncore_imc events: no uncore_imc PMU in sysfs, a virtual machine?");
  EXPECT_EQ(countable.why_not(field),
            "this machine's PMU does not count PERF_METRICS (TOPDOWN.* fields): no topdown-* events in sysfs, a "
            "virtual machine?");
  EXPECT_EQ(countable.why_not(precise),
            "this machine's PMU does not count precise (PEBS) events: no PEBS (caps/max_precise is 0), a virtual "
            "machine?");
  EXPECT_EQ(countable.missing().size(), 3u);
}

// The plan keeps the nodes that need a class the machine lacks, n/a with
// the reason, and counts none of their events; the rest is planned. An Info
// metric that needs one is left out, with the reason.
TEST(Countable, ThePlanLeavesOutTheNodesThatNeedAMissingClass) {
  const model::Model model = model::load_model(std::filesystem::path(TOPDOWN_SOURCE_DIR) / "models/spr.model");
  const cpu::CpuInfo cpu = kvm_spr();
  const events::Resolver resolver(events::resolver_config(model, cpu));
  const TrialOpen ocr_and_frontend_fail = [](const events::Encoding& event) {
    return event.name.starts_with("OCR.") || event.name.starts_with("FRONTEND_RETIRED.") ? EOPNOTSUPP : 0;
  };
  const model::RunVariables vars{false, false, false};
  const model::Dependencies deps(model, vars);
  std::vector<events::Encoding> needed;
  for (const char* node : {"Contested_Accesses", "Info_Frontend_IpDSB_Miss_Ret", "L3_Bound"}) {
    for (const std::string& event : deps.events_of(node)) needed.push_back(resolver.resolve(event));
  }
  const Countable countable = Countable::of_machine(cpu, needed, ocr_and_frontend_fail);
  Selection selection;
  selection.max_level = 4;
  const Plan plan = make_plan(model, vars, selection, resolver, CounterBudget{8, 4}, countable);
  ASSERT_TRUE(plan.not_counted.count("Contested_Accesses"));
  EXPECT_NE(plan.not_counted.at("Contested_Accesses").find("does not count OCR.* (offcore response): opening OCR."),
            std::string::npos);
  ASSERT_TRUE(plan.not_counted.count("Info_Frontend_IpDSB_Miss_Ret"));
  EXPECT_NE(plan.not_counted.at("Info_Frontend_IpDSB_Miss_Ret").find("FRONTEND_RETIRED.*"), std::string::npos);
  // The tree node stays, to be shown n/a; the Info metric does not ride along.
  EXPECT_NE(std::find(plan.nodes.begin(), plan.nodes.end(), "Contested_Accesses"), plan.nodes.end());
  EXPECT_EQ(std::find(plan.nodes.begin(), plan.nodes.end(), "Info_Frontend_IpDSB_Miss_Ret"), plan.nodes.end());
  EXPECT_FALSE(plan.not_counted.count("L3_Bound"));
  EXPECT_TRUE(plan.uncountable_events.count("OCR.DEMAND_DATA_RD.L3_HIT.SNOOP_HITM"));
  for (const Group& group : plan.groups) {
    for (const events::Encoding& event : group.events) EXPECT_FALSE(event.name.starts_with("OCR.")) << event.name;
  }
  bool l3_bound_counted = false;
  for (const Group& group : plan.groups) {
    for (const events::Encoding& event : group.events)
      l3_bound_counted |= event.name == "MEMORY_ACTIVITY.STALLS_L3_MISS";
  }
  EXPECT_TRUE(l3_bound_counted);
  EXPECT_NE(describe(plan).find("Contested_Accesses is not counted: this machine's PMU does not count OCR.*"),
            std::string::npos);
}

}  // namespace
}  // namespace topdown::schedule
