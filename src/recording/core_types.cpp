#include "recording/core_types.h"

#include <algorithm>
#include <optional>

namespace topdown::recording {
namespace {

// The groups of `pmu`: their new index by their old one, nullopt for another type's.
std::vector<std::optional<uint32_t>> renumbered(const Header& header, const std::string& pmu) {
  std::vector<std::optional<uint32_t>> index;
  uint32_t next = 0;
  for (const SampledGroup& group : header.groups)
    index.push_back(group.pmu == pmu ? std::optional(next++) : std::nullopt);
  return index;
}

bool has_samples(const Recording& recording, const std::vector<std::optional<uint32_t>>& index) {
  return std::any_of(recording.samples.begin(), recording.samples.end(),
                     [&](const Sample& sample) { return index[sample.group].has_value(); });
}

// `whole` less its samples, groups and file-wide notes: the pools every part shares.
Recording shared_part(const Recording& whole) {
  Recording part;
  part.mappings = whole.mappings;
  part.tasks = whole.tasks;
  part.symbols = whole.symbols;
  part.frames = whole.frames;
  part.user_stacks = whole.user_stacks;
  part.stack_registers = whole.stack_registers;
  part.stack_bytes = whole.stack_bytes;
  part.user_register_mask = whole.user_register_mask;
  part.values = whole.values;
  return part;
}

}  // namespace

std::vector<CoreTypeRecording> split_by_core_type(Recording recording) {
  std::vector<CoreTypeRecording> parts;
  if (recording.header.core_types.empty()) {
    parts.push_back({CoreType{}, std::move(recording)});
    return parts;
  }
  std::vector<CoreType> types;
  for (const CoreType& type : recording.header.core_types) {
    if (has_samples(recording, renumbered(recording.header, type.pmu))) types.push_back(type);
  }
  if (types.empty()) types.push_back(recording.header.core_types.front());
  for (const CoreType& type : types) {
    const std::vector<std::optional<uint32_t>> index = renumbered(recording.header, type.pmu);
    Recording part = shared_part(recording);
    part.header = recording.header;
    part.header.model = type.model;
    part.header.core_types = {type};
    part.header.groups.clear();
    for (const SampledGroup& group : recording.header.groups) {
      if (group.pmu == type.pmu) part.header.groups.push_back(group);
    }
    for (const Sample& sample : recording.samples) {
      if (!index[sample.group]) continue;
      part.samples.push_back(sample);
      part.samples.back().group = *index[sample.group];
    }
    if (parts.empty()) {
      part.lost_samples = recording.lost_samples;
      part.truncated = recording.truncated;
      part.warnings = recording.warnings;
    }
    parts.push_back({type, std::move(part)});
  }
  return parts;
}

}  // namespace topdown::recording
