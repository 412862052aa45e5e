#include "cli/context.h"

#include "common/data_dir.h"
#include "events/model_resolver.h"
#include "model/perf_metrics_json.h"

namespace topdown::cli {

model::Model choose_model(const cpu::CpuId& cpu, const std::string& cpu_override, const std::string& metrics_file,
                          const std::string& model_file) {
  model::Model model = model_file.empty() ? model::select_model(models_dir(), cpu, cpu_override)
                                          : model::load_model(model_file);
  return metrics_file.empty() ? model : model::load_perf_metrics_json(metrics_file, model);
}

Context make_context(const std::string& cpu_override, const std::string& metrics_file, const std::string& model_file) {
  cpu::CpuInfo cpu = cpu::detect();
  model::Model model = choose_model(cpu.id, cpu_override, metrics_file, model_file);
  events::Resolver resolver(model.matches(cpu.id) ? events::resolver_config(model, cpu)
                                                  : events::offline_resolver_config(model));
  return Context{std::move(cpu), std::move(model), std::move(resolver)};
}

bool use_perf_metrics(const Context& context, const std::string& choice) {
  if (!choice.empty()) return choice == "on";
  return context.model.matches(context.cpu.id) ? context.cpu.topdown_metrics : true;
}

schedule::CounterBudget counter_budget(const Context& context, bool smt_enabled, std::optional<int> counters_override) {
  const cpu::CpuInfo& cpu = context.cpu;
  const model::ModelCounters& declared = context.model.counters;
  const bool this_machine = context.model.matches(cpu.id);
  schedule::CounterBudget budget = schedule::host_budget(cpu, context.model);
  if (counters_override) {
    budget.general = *counters_override;
  } else if (!this_machine && declared.general_for(smt_enabled) > 0) {
    budget.general = static_cast<int>(declared.general_for(smt_enabled));
  }
  const bool intel = (this_machine ? cpu.id.vendor : context.model.cpus.front().vendor) == cpu::Vendor::Intel;
  if (declared.fixed == 0) budget.fixed = intel ? 3 : 0;
  return budget;
}

}  // namespace topdown::cli
