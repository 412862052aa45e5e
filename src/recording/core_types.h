#pragma once
// A hybrid CPU's recording holds every core type's groups (each with its
// PMU, Header::core_types names each type's model); each type's samples are
// profiled apart, with its own model.
#include <vector>

#include "recording/recording.h"

namespace topdown::recording {

struct CoreTypeRecording {
  CoreType type;  // empty for a CPU with one kind of core
  Recording recording;
};

// Each core type's part of `recording`, in Header::core_types order (P-cores
// first): its groups alone, renumbered, with their samples, the model its
// header names; the mappings, task events, symbols and stacks whole. Types
// without a sample are left out (unless none has one: then the first).
// The file's lost count, truncation and warnings go to the first part, so
// they are reported once. A recording of one kind of core is one part.
std::vector<CoreTypeRecording> split_by_core_type(Recording recording);

}  // namespace topdown::recording
