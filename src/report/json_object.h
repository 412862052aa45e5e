#pragma once
// The JSON report as an object, before ReportWriter adds a record's "time"
// and "scope" and writes it out. Private to the report stage.
#include <nlohmann/json.hpp>

#include "report/report.h"

namespace topdown::report {

nlohmann::json json_object(const eval::Evaluation& evaluation, const counts::Sample& sample, const RunInfo& run);

// The object as text ending in "\n": indented, or on one line (a record of a
// stream). Event names from an imported file and a workload's arguments need
// not be UTF-8: invalid bytes become U+FFFD rather than an exception.
std::string json_text(const nlohmann::json& object, bool one_line);

}  // namespace topdown::report
