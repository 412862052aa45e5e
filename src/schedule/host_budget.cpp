#include "cpu/cpu_info.h"
#include "schedule/plan.h"

namespace topdown::schedule {

CounterBudget host_budget(const cpu::CpuInfo& cpu, const model::Model& model) {
  CounterBudget budget;
  const bool arm = cpu.id.vendor == cpu::Vendor::Arm;
  budget.general = cpu.working_counters.value_or(arm ? kArmEventCountersWithoutCheck : cpu.reported_counters);
  const bool intel = cpu.id.vendor == cpu::Vendor::Intel;
  budget.fixed = model.counters.fixed > 0 ? static_cast<int>(model.counters.fixed) : (intel ? 3 : 0);
  if (model.runs_on(cpu)) budget.core_pmus = cpu.core_pmu_names();
  return budget;
}

}  // namespace topdown::schedule
