#include "settings/hybrid.h"

#include <algorithm>
#include <optional>
#include <set>

#include "common/error.h"
#include "common/strings.h"
#include "settings/stat.h"

namespace topdown::settings {
namespace {

std::string tagged(std::string_view pmu, const std::string& event) { return std::string(pmu) + "/" + event + "/"; }

// EVENT of a name pmu/EVENT/; nullopt for another type's or no type's event.
std::optional<std::string> untagged(std::string_view pmu, std::string_view name) {
  const bool ours =
      name.size() > pmu.size() + 1 && name.starts_with(pmu) && name[pmu.size()] == '/' && name.ends_with('/');
  if (!ours) return std::nullopt;
  return std::string(name.substr(pmu.size() + 1, name.size() - pmu.size() - 2));
}

// The core PMUs of a CPU with cores of several types, one each: hybrid
// Intel's cpu_core and cpu_atom, an Arm big.LITTLE system's core PMUs (each
// with the CPUs of its kind).
std::vector<cpu::PmuInfo> core_type_pmus(const cpu::CpuInfo& cpu) {
  std::vector<cpu::PmuInfo> pmus = cpu.hybrid_core_pmus();
  if (cpu.core_kinds.size() < 2) return pmus;
  for (const cpu::PmuInfo& pmu : cpu.arm_core_pmus()) {
    if (!pmu.cpus.empty()) pmus.push_back(pmu);
  }
  return pmus;
}

}  // namespace

CoreTypePlacement core_type_placement(const cpu::CpuInfo& cpu, const model::Model& model,
                                      const collect::Target& target) {
  const std::vector<cpu::PmuInfo> core_types = core_type_pmus(cpu);
  const auto pmu = std::find_if(core_types.begin(), core_types.end(),
                                [&](const cpu::PmuInfo& candidate) { return candidate.name == model.pmu; });
  if (pmu == core_types.end()) {
    std::vector<std::string> names;
    for (const cpu::PmuInfo& core_type : core_types) names.push_back(core_type.name);
    throw Error("model " + model.name + " counts on the PMU '" + (model.pmu.empty() ? "cpu" : model.pmu) +
                "', and this CPU's core PMUs are " + (names.empty() ? "not of several types" : join(names, ", ")) +
                "; use the model of this CPU (leave out --cpu and --model)");
  }
  CoreTypePlacement placement{model.core_type, pmu->name, pmu->type, pmu->cpus};
  if (!target.cpus.empty()) {
    std::erase_if(placement.cpus, [&](int index) {
      return std::find(target.cpus.begin(), target.cpus.end(), index) == target.cpus.end();
    });
  }
  return placement;
}

bool plans_by_core_type(const cpu::CpuInfo& cpu, const model::Model& model) {
  if (model.pmu.empty() || !model.runs_on(cpu)) return false;
  return core_type_pmus(cpu).size() > 1;
}

bool counts_core_types(const cpu::CpuInfo& cpu, const std::vector<CoreTypePlan>& types) {
  return plans_by_core_type(cpu, types.front().model) && (types.size() > 1 || cpu.core_kinds.size() > 1);
}

PlacedCoreTypes place_core_types(const cpu::CpuInfo& cpu, const std::vector<CoreTypePlan>& types, aggregate::View per,
                                 const collect::Target& target) {
  PlacedCoreTypes placed;
  for (const CoreTypePlan& type : types) {
    CoreTypePlacement placement = core_type_placement(cpu, type.model, target);
    if (!target.cpus.empty() && placement.cpus.empty()) continue;  // -C named no CPU of this type
    CountedGroups counted = counted_groups(type.plan, per, target);
    std::vector<collect::CounterGroup> groups = core_type_groups(std::move(counted.groups), placement);
    placed.groups.insert(placed.groups.end(), groups.begin(), groups.end());
    placed.types.push_back({&type, std::move(placement), std::move(counted.core_wide_events), std::move(groups)});
  }
  return placed;
}

std::vector<collect::CounterGroup> core_type_groups(std::vector<collect::CounterGroup> groups,
                                                    const CoreTypePlacement& placement) {
  for (collect::CounterGroup& group : groups) {
    for (events::Encoding& event : group.events) event.name = tagged(placement.pmu, event.name);
    std::set<std::string, std::less<>> copies;
    for (const std::string& event : group.copies.events) copies.insert(tagged(placement.pmu, event));
    group.copies.events = std::move(copies);
    group.cpus = placement.cpus;
  }
  return groups;
}

std::vector<collect::CounterGroup> sampled_core_type_groups(std::vector<collect::CounterGroup> groups,
                                                            const CoreTypePlacement& placement) {
  for (collect::CounterGroup& group : groups) group.cpus = placement.cpus;
  return groups;
}

counts::Sample core_type_counts(const counts::Sample& sample, std::string_view pmu) {
  counts::Sample ours;
  ours.duration_s = sample.duration_s;
  for (const auto& [key, count] : sample.events) {
    if (auto event = untagged(pmu, key.event))
      ours.events.emplace(counts::EventKey(std::move(*event), key.group), count);
  }
  return ours;
}

std::vector<counts::Place> core_type_places(const std::vector<counts::Place>& places, std::string_view pmu) {
  std::vector<counts::Place> ours;
  for (const counts::Place& place : places) {
    counts::Sample sample = core_type_counts(place.sample, pmu);
    if (!sample.events.empty()) ours.emplace_back(place.label, std::move(sample), place.cgroup);
  }
  return ours;
}

std::vector<std::vector<collect::CounterGroup>> side_by_side_runs(
    const std::vector<std::vector<collect::CounterGroup>>& by_type) {
  std::vector<std::vector<collect::CounterGroup>> runs;
  for (const std::vector<collect::CounterGroup>& groups : by_type) {
    if (runs.size() < groups.size()) runs.resize(groups.size());
    for (size_t g = 0; g < groups.size(); ++g) runs[g].push_back(groups[g]);
  }
  return runs;
}

}  // namespace topdown::settings
