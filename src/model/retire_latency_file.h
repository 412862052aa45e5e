#pragma once
// Mean retire latencies a user gives a run (--retire-latencies FILE), in the
// format Intel's perfmon publishes them (*_retire_latency.json) and toplev's
// genretlat writes: {"Data": {"EVENT": {"MEAN": cycles, ...}, ...}}.
#include <filesystem>

#include "model/dependencies.h"

namespace topdown::model {

// Each event's MEAN, by formula name (retire_latency_name); none for an
// empty path (no --retire-latencies). Throws Error naming the file when it
// cannot be read, is not JSON of that shape, or a MEAN is not a number of
// cycles >= 0.
RetireLatencies read_retire_latency_file(const std::filesystem::path& file);

}  // namespace topdown::model
