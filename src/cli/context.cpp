#include "cli/context.h"

#include "events/model_resolver.h"

namespace topdown::cli {

Context make_context(const std::string& cpu_override) {
  cpu::CpuInfo cpu = cpu::detect();
  model::Model model = model::select_model(model::default_model_dir(), cpu.id, cpu_override);
  events::Resolver resolver(model.matches(cpu.id) ? events::resolver_config(model, cpu)
                                                  : events::offline_resolver_config(model));
  return Context{std::move(cpu), std::move(model), std::move(resolver)};
}

schedule::CounterBudget counter_budget(const Context& context, bool smt_enabled, std::optional<int> counters_override) {
  const cpu::CpuInfo& cpu = context.cpu;
  const model::ModelCounters& declared = context.model.counters;
  const bool this_machine = context.model.matches(cpu.id);
  schedule::CounterBudget budget;
  if (counters_override) {
    budget.general = *counters_override;
  } else if (!this_machine && declared.general_for(smt_enabled) > 0) {
    budget.general = static_cast<int>(declared.general_for(smt_enabled));
  } else if (cpu.working_counters) {
    budget.general = *cpu.working_counters;
  } else if (cpu.reported_counters > 0) {
    budget.general = cpu.reported_counters;
  }
  const bool intel = (this_machine ? cpu.id.vendor : context.model.cpus.front().vendor) == cpu::Vendor::Intel;
  budget.fixed = declared.fixed > 0 ? static_cast<int>(declared.fixed) : (intel ? 3 : 0);
  return budget;
}

}  // namespace topdown::cli
