#pragma once
// A model built from a Linux perf metric file (perf's pmu-events
// <cpu>-metrics.json), so that topdown can analyse any CPU perf describes:
// the TMA tree comes from perf's tma_<parent>_group metric groups, every
// other metric is an Info metric. See docs/model-format.md, "perf metric
// files".
#include <filesystem>

#include "model/model.h"

namespace topdown::model {

// Loads perf's metric JSON `file`. The file says nothing about the CPU, so
// `cpu_model` (this machine's model or the one --cpu names) gives the model's
// name, cpus, event tables, libpfm4 PMU, counter counts and Pipeline_Width
// (perf's #slots); its source stays the CPU model's file, next to which its
// event tables are found. Throws Error naming the file, and the metric when one is
// at fault, with what is wrong.
Model load_perf_metrics_json(const std::filesystem::path& file, const Model& cpu_model);

}  // namespace topdown::model
