#include "cli/context.h"

#include <fmt/format.h>

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
  if (!model.companion.empty()) {
    return model::with_core_type_pmus(model::with_companion(std::move(model), models_dir()), cpu, models_dir());
  }
  return model::with_core_kinds(std::move(model), cpu, models_dir());
}

std::string uncounted_core_kinds_warning(const cpu::CpuInfo& cpu, const std::vector<model::Model>& models) {
  std::string warning;
  for (const model::UncountedKind& uncounted : model::uncounted_core_kinds(cpu, models)) {
    const cpu::CpuId& id = uncounted.kind.id;
    std::string why;
    switch (uncounted.why) {
      case model::UncountedKind::Why::NoModel:
        why = fmt::format(
            "no model fits their cores ({}), and --cpu cannot give them one (it chooses the model the other kinds "
            "are matched to); to count them, add a model with `cpus = Arm 0x{:02X} 0x{:X}` to {} "
            "(docs/model-format.md)",
            id.brand, id.family, id.model, models_dir().string());
        break;
      case model::UncountedKind::Why::NoPmu:
        why = fmt::format(
            "no core PMU counts on all of them ({}), and --cpu cannot give them one; the kernel's PMU driver must "
            "know these cores (see `ls {}/bus/event_source/devices`)",
            id.brand, cpu.sysfs_root.string());
        break;
      case model::UncountedKind::Why::SharedPmu:
        why = fmt::format(
            "their core PMU {} is the one model {} counts on, and each model needs a PMU of its own; count them "
            "apart with -C {} and --cpu naming their model (`topdown list --models`)",
            uncounted.pmu, uncounted.counted_model, cpu::format_index_list(uncounted.kind.cpus));
        break;
    }
    warning += fmt::format("topdown: warning: CPUs {} are not counted: {}\n",
                           cpu::format_index_list(uncounted.kind.cpus), why);
  }
  return warning;
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
