#include "cli/context.h"

#include "events/model_resolver.h"

namespace topdown::cli {

Context make_context(const std::string& cpu_override) {
  cpu::CpuInfo cpu = cpu::detect();
  model::Model model = model::select_model(model::default_model_dir(), cpu.id, cpu_override);
  events::Resolver resolver(events::resolver_config(model, cpu));
  return Context{std::move(cpu), std::move(model), std::move(resolver)};
}

schedule::CounterBudget counter_budget(const cpu::CpuInfo& cpu, std::optional<int> counters_override) {
  schedule::CounterBudget budget;
  if (counters_override) {
    budget.general = *counters_override;
  } else if (cpu.working_counters) {
    budget.general = *cpu.working_counters;
  } else if (cpu.reported_counters > 0) {
    budget.general = cpu.reported_counters;
  }
  // Fixed counters (instructions, cycles, ref cycles) exist on Intel only.
  budget.fixed = cpu.id.vendor == cpu::Vendor::Intel ? 3 : 0;
  return budget;
}

}  // namespace topdown::cli
