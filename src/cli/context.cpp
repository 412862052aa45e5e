#include "cli/context.h"

#include "common/data_dir.h"
#include "events/model_resolver.h"
#include "model/perf_metrics_json.h"

namespace topdown::cli {

model::Model choose_model(const cpu::CpuId& cpu, const std::string& cpu_override, const std::string& metrics_file,
                          const std::string& model_file) {
  model::Model model =
      model_file.empty() ? model::select_model(models_dir(), cpu, cpu_override) : model::load_model(model_file);
  return metrics_file.empty() ? model : model::load_perf_metrics_json(metrics_file, model);
}

std::vector<model::Model> core_type_models(const cpu::CpuInfo& cpu, const std::string& cpu_override,
                                           const std::string& metrics_file) {
  return core_type_models(choose_model(cpu.id, cpu_override, metrics_file), cpu, metrics_file);
}

std::vector<model::Model> core_type_models(model::Model model, const cpu::CpuInfo& cpu,
                                           const std::string& metrics_file) {
  if (!metrics_file.empty()) return {std::move(model)};
  if (!model.companion.empty()) return model::with_companion(std::move(model), models_dir());
  return model::with_core_kinds(std::move(model), cpu, models_dir());
}

events::Resolver resolver_for(const model::Model& model, const cpu::CpuInfo& cpu) {
  return events::Resolver(model.runs_on(cpu) ? events::resolver_config(model, cpu)
                                             : events::offline_resolver_config(model));
}

cpu::CpuInfo detect_cpu(const std::string& root, cpu::CounterCheck check) {
  if (root.empty()) return cpu::detect("/sys", "/proc", check);
  return cpu::detect(std::filesystem::path(root) / "sys", std::filesystem::path(root) / "proc",
                     cpu::CounterCheck::Skip);
}

Context make_context(const std::string& cpu_override, const std::string& metrics_file, const std::string& model_file,
                     const std::string& root) {
  cpu::CpuInfo cpu = detect_cpu(root);
  model::Model model = choose_model(cpu.id, cpu_override, metrics_file, model_file);
  events::Resolver resolver = resolver_for(model, cpu);
  return Context{std::move(cpu), std::move(model), std::move(resolver)};
}

}  // namespace topdown::cli
