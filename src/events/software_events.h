#pragma once
// perf's generic software events (PERF_TYPE_SOFTWARE: task-clock,
// page-faults, ...). The kernel counts them without PMU hardware, so they
// work everywhere, in a VM without a virtual PMU too.
#include <optional>
#include <string_view>

#include "events/event.h"

namespace topdown::events {

// The encoding of a software event by perf's name or alias ("cs" for
// "context-switches"), named `name`; nullopt for any other name.
std::optional<Encoding> software_event(std::string_view name);

}  // namespace topdown::events
