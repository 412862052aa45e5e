#pragma once
// Why counters could not be opened, as a region::Error whose code says what
// kind of failure it is and whose message is the CLI's explanation.
#include <string>

#include "perf/event.h"
#include "topdown/region.hpp"

namespace topdown::region {

// For perf_event_open failing with `err` on `event`.
Error open_error(int err, const perf::Event& event, const std::string& paranoid);

// When the kernel exposes no core PMU at all: nothing can be counted.
Error no_pmu_error(const std::string& paranoid);

}  // namespace topdown::region
