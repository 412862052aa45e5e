#include "import/hybrid.h"

#include <algorithm>
#include <optional>

#include "perf/open_failure.h"

namespace topdown::import {
namespace {

struct CoreEvent {
  std::string_view pmu;  // "cpu_atom", "armv8_pmuv3_1"
  bool arm = false;      // an Arm core PMU's
};

std::optional<CoreEvent> split_core_event(std::string_view name, const std::vector<std::string>& arm_core_pmus) {
  const size_t slash = name.find('/');
  if (slash == std::string_view::npos) return std::nullopt;
  const std::string_view pmu = name.substr(0, slash);
  const bool word = std::all_of(pmu.begin(), pmu.end(),
                                [](char c) { return (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '_'; });
  const bool arm = is_arm_core_pmu(pmu, arm_core_pmus);
  if (!word || !(pmu.starts_with("cpu_") || arm)) return std::nullopt;
  return CoreEvent{pmu, arm};
}

std::vector<std::string> names_for(const std::vector<std::string>& names, std::string_view pmu,
                                   const std::vector<std::string>& core_pmus) {
  std::vector<std::string> kept;
  for (const std::string& name : names) {
    if (auto renamed = core_type_name(name, pmu, core_pmus)) kept.push_back(std::move(*renamed));
  }
  return kept;
}

counts::Sample sample_for(const counts::Sample& sample, std::string_view pmu,
                          const std::vector<std::string>& core_pmus) {
  counts::Sample kept;
  kept.duration_s = sample.duration_s;
  for (const auto& [key, count] : sample.events) {
    if (auto renamed = core_type_name(key.event, pmu, core_pmus))
      kept.events.emplace(counts::EventKey(*renamed, key.group), count);
  }
  return kept;
}

// A name pmu/.../ of `pmu`.
bool of_pmu(std::string_view name, std::string_view pmu) {
  return name.size() > pmu.size() && name.starts_with(pmu) && name[pmu.size()] == '/';
}

bool has_row_of(const counts::Sample& sample, std::string_view pmu) {
  return std::any_of(sample.events.begin(), sample.events.end(),
                     [&](const auto& entry) { return of_pmu(entry.first.event, pmu); });
}

}  // namespace

bool is_arm_core_pmu(std::string_view pmu, const std::vector<std::string>& arm_core_pmus) {
  if (arm_core_pmus.empty()) return perf::is_arm_core_pmu(pmu, false);
  return std::find(arm_core_pmus.begin(), arm_core_pmus.end(), pmu) != arm_core_pmus.end();
}

std::optional<std::string> core_type_name(std::string_view name, std::string_view pmu,
                                          const std::vector<std::string>& core_pmus) {
  const auto core = std::find_if(core_pmus.begin(), core_pmus.end(),
                                 [&](const std::string& candidate) { return of_pmu(name, candidate); });
  if (core == core_pmus.end()) return std::string(name);
  if (*core != pmu) return std::nullopt;
  const std::string_view rest = name.substr(core->size() + 1);
  const bool one_name = rest.size() > 1 && rest.ends_with('/') && rest.find_first_of("=,/") == rest.size() - 1;
  return one_name ? std::string(rest.substr(0, rest.size() - 1)) : std::string(name);
}

std::vector<std::string> core_pmus_of(const std::vector<std::string>& events,
                                      const std::vector<std::string>& arm_core_pmus) {
  std::vector<std::string> pmus;
  std::vector<std::string> arm_pmus;
  for (const std::string& event : events) {
    const auto core = split_core_event(event, arm_core_pmus);
    if (!core) continue;
    std::vector<std::string>& found = core->arm ? arm_pmus : pmus;
    if (std::find(found.begin(), found.end(), core->pmu) == found.end()) found.emplace_back(core->pmu);
  }
  // One Arm core PMU is the CPU's only one (some kernels name it in every
  // row): the rows of one tree.
  if (arm_pmus.size() > 1) pmus.insert(pmus.end(), arm_pmus.begin(), arm_pmus.end());
  std::sort(pmus.begin(), pmus.end());
  return pmus;
}

FileInfo core_type_file(const FileInfo& file, std::string_view pmu, const std::vector<std::string>& core_pmus) {
  FileInfo kept = file;
  kept.events = names_for(file.events, pmu, core_pmus);
  kept.repeated_events = names_for(file.repeated_events, pmu, core_pmus);
  return kept;
}

Interval core_type_interval(const Interval& interval, std::string_view pmu, const std::vector<std::string>& core_pmus) {
  Interval kept;
  kept.time_s = interval.time_s;
  kept.sample = sample_for(interval.sample, pmu, core_pmus);
  for (const counts::Place& place : interval.places) {
    if (has_row_of(place.sample, pmu))
      kept.places.emplace_back(place.label, sample_for(place.sample, pmu, core_pmus), place.cgroup);
  }
  for (const counts::Sample& run : interval.runs) kept.runs.push_back(sample_for(run, pmu, core_pmus));
  return kept;
}

bool ran_on(const Interval& interval, std::string_view pmu) {
  return std::any_of(interval.sample.events.begin(), interval.sample.events.end(), [&](const auto& entry) {
    return of_pmu(entry.first.event, pmu) && entry.second.time_running > 0 && entry.second.value > 0;
  });
}

}  // namespace topdown::import
