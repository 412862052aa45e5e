#pragma once
// Reports of one unit (a CPU, core, socket or thread: --per-thread,
// --per-core, --per-socket) among several, as README.md documents them:
//   Text  the report under "=== SCOPE ===";
//   Csv   a leading "scope" column (the header line only when asked for;
//         ',' and '"' of a thread's command shown as '_');
//   Json  one object per line with a "scope" key; a record of a stream
//         (stat -I) has "time" as well, null for the whole run's record.
// SCOPE is aggregate::Unit's label: "CPU3", "S0-C1", "S0", "app-4242".
#include <string>

#include "report/report.h"

namespace topdown::report {

std::string render_unit_text(const eval::Evaluation& evaluation, const counts::Sample& sample, const RunInfo& run,
                             const TextOptions& options, const std::string& scope);
std::string render_unit_csv(const eval::Evaluation& evaluation, const counts::Sample& sample, const RunInfo& run,
                            const std::string& scope, bool with_header);
std::string render_unit_json(const eval::Evaluation& evaluation, const counts::Sample& sample, const RunInfo& run,
                             const std::string& scope, bool in_stream);

}  // namespace topdown::report
