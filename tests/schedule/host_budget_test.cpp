#include <gtest/gtest.h>

#include "schedule/plan.h"

namespace topdown::schedule {
namespace {

// Our Zen 5 VMs: six counters reported, five that count.
TEST(HostBudget, IsWhatReallyCounts) {
  cpu::CpuInfo cpu;
  cpu.id.vendor = cpu::Vendor::Amd;
  cpu.reported_counters = 6;
  cpu.working_counters = 5;
  model::Model model;
  EXPECT_EQ(host_budget(cpu, model).general, 5);
  EXPECT_EQ(host_budget(cpu, model).fixed, 0);
  cpu.working_counters.reset();  // the health check could not run
  EXPECT_EQ(host_budget(cpu, model).general, 6);
  cpu.id.vendor = cpu::Vendor::Intel;
  EXPECT_EQ(host_budget(cpu, model).fixed, 3);
  model.counters.fixed = 4;  // Ice Lake on: TOPDOWN.SLOTS
  EXPECT_EQ(host_budget(cpu, model).fixed, 4);
}

// A Neoverse V2 whose health check found six event counters; one where it
// could not run (a VM without a PMU) plans for six, not for none.
TEST(HostBudget, ArmWithoutTheHealthCheckPlansForSix) {
  cpu::CpuInfo cpu;
  cpu.id.vendor = cpu::Vendor::Arm;
  cpu.working_counters = 4;
  model::Model model;
  EXPECT_EQ(host_budget(cpu, model).general, 4);
  EXPECT_EQ(host_budget(cpu, model).fixed, 0);
  cpu.working_counters.reset();
  EXPECT_EQ(cpu.reported_counters, 0);
  EXPECT_EQ(host_budget(cpu, model).general, 6);
  model.counters.fixed = 1;  // an Arm model: the cycle counter
  EXPECT_EQ(host_budget(cpu, model).fixed, 1);
}

}  // namespace
}  // namespace topdown::schedule
