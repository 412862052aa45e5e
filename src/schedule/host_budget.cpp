#include "cpu/cpu_info.h"
#include "schedule/plan.h"

namespace topdown::schedule {
namespace {

// Arm reports no counter count to user space; without the health check (no
// PMU, or not permitted) plan for the six event counters of Neoverse N1, V1,
// N2 and V2, so that software events count and a missing PMU is reported as
// such when the groups open.
constexpr int kArmCountersWithoutCheck = 6;

}  // namespace

CounterBudget host_budget(const cpu::CpuInfo& cpu, const model::Model& model) {
  CounterBudget budget;
  const bool arm = cpu.id.vendor == cpu::Vendor::Arm;
  budget.general = cpu.working_counters.value_or(arm ? kArmCountersWithoutCheck : cpu.reported_counters);
  const bool intel = cpu.id.vendor == cpu::Vendor::Intel;
  budget.fixed = model.counters.fixed > 0 ? static_cast<int>(model.counters.fixed) : (intel ? 3 : 0);
  return budget;
}

}  // namespace topdown::schedule
