#include "cli/context.h"

namespace topdown::cli {
namespace {

events::Resolver make_resolver(const cpu::CpuInfo& cpu, const model::Model& model) {
  events::ResolverConfig config;
  config.cpu = cpu;
  if (!model.event_table.empty()) {
    config.tables.push_back(model::default_model_dir() / "events" / (model.event_table + ".events"));
  }
  config.pfm_pmu = model.pfm_pmu.empty() ? "-" : model.pfm_pmu;  // "" would mean the host's libpfm4 PMU
  return events::Resolver(std::move(config));
}

}  // namespace

Context make_context(const std::string& cpu_override) {
  cpu::CpuInfo cpu = cpu::detect();
  model::Model model = model::select_model(model::default_model_dir(), cpu.id, cpu_override);
  events::Resolver resolver = make_resolver(cpu, model);
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
