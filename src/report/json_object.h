#pragma once
// The JSON report as an object, before it is written out: a record of an
// interval stream is one line, a single report is indented. Private to the
// report stage.
#include <nlohmann/json.hpp>

#include "report/report.h"

namespace topdown::report {

// With run.interval_time_s, the object has "time".
nlohmann::json json_object(const eval::Evaluation& evaluation, const counts::Sample& sample, const RunInfo& run);

}  // namespace topdown::report
