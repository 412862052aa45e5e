#include <algorithm>

#include "model/model.h"

namespace topdown::model {

bool ModelHeader::runs_on(const cpu::CpuInfo& cpu) const {
  return matches(cpu.id) || std::any_of(cpu.core_kinds.begin(), cpu.core_kinds.end(),
                                        [&](const cpu::CoreKind& kind) { return matches(kind.id); });
}

std::vector<Model> with_core_kinds(Model model, const cpu::CpuInfo& cpu, const std::filesystem::path& dir) {
  std::vector<Model> models;
  if (cpu.core_kinds.size() < 2 || !model.pmu.empty() || !model.runs_on(cpu)) {
    models.push_back(std::move(model));
    return models;
  }
  // `model`'s kind first, as a file of one kind is read with the first
  // model; then the kinds Linux numbers last (the big cores) first.
  std::vector<cpu::CoreKind> kinds(cpu.core_kinds.rbegin(), cpu.core_kinds.rend());
  std::stable_partition(kinds.begin(), kinds.end(), [&](const cpu::CoreKind& kind) { return model.matches(kind.id); });
  for (const cpu::CoreKind& kind : kinds) {
    const cpu::PmuInfo* pmu = cpu.arm_core_pmu_of(kind);
    const bool pmu_taken =
        pmu && std::any_of(models.begin(), models.end(), [&](const Model& bound) { return bound.pmu == pmu->name; });
    if (!pmu || pmu_taken) continue;
    std::optional<Model> bound;
    if (model.matches(kind.id)) {
      bound = model;
    } else {
      try {
        bound = select_model(dir, kind.id);
      } catch (const ParseError&) {
        throw;
      } catch (const Error&) {
        continue;  // no model for these cores
      }
    }
    bound->pmu = pmu->name;
    bound->core_type = bound->title;
    models.push_back(std::move(*bound));
  }
  // One kind alone still counts on its own PMU and CPUs only.
  if (models.empty()) models.push_back(std::move(model));
  return models;
}

std::vector<UncountedKind> uncounted_core_kinds(const cpu::CpuInfo& cpu, const std::vector<Model>& models) {
  std::vector<UncountedKind> uncounted;
  const bool bound = !models.empty() && std::all_of(models.begin(), models.end(), [&](const Model& model) {
    return !model.pmu.empty() && model.runs_on(cpu);
  });
  if (cpu.core_kinds.size() < 2 || !bound) return uncounted;
  for (const cpu::CoreKind& kind : cpu.core_kinds) {
    const cpu::PmuInfo* pmu = cpu.arm_core_pmu_of(kind);
    const auto counting =
        std::find_if(models.begin(), models.end(), [&](const Model& model) { return pmu && model.pmu == pmu->name; });
    if (counting != models.end() && counting->matches(kind.id)) continue;
    if (!pmu) {
      uncounted.push_back({kind, UncountedKind::Why::NoPmu, "", ""});
    } else if (counting != models.end()) {
      uncounted.push_back({kind, UncountedKind::Why::SharedPmu, pmu->name, counting->name});
    } else {
      uncounted.push_back({kind, UncountedKind::Why::NoModel, pmu->name, ""});
    }
  }
  return uncounted;
}

}  // namespace topdown::model
