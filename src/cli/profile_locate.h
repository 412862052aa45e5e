#pragma once
// The locate table of topdown report: where the whole program's
// bottleneck's events land, by function and source line, in text, CSV and
// JSON (README.md, "Profiling functions").
#include <optional>
#include <string>

#include "profile/profile.h"
#include "recording/recording.h"
#include "report/csv.h"

namespace topdown::cli {

std::string locate_text(const std::optional<profile::Locate>& locate, const recording::Recording& recording);
// Rows of kind "location" under csv_sampled_header(), each after `leading`
// (a hybrid CPU's core_type and core_share).
std::string locate_csv(const std::optional<profile::Locate>& locate, const recording::Recording& recording,
                       const report::CsvRow& leading);
// The last object of the JSON lines; with the core type it locates, on a hybrid CPU.
std::string locate_json(const std::optional<profile::Locate>& locate, const recording::Recording& recording,
                        const std::string& core_type);

}  // namespace topdown::cli
