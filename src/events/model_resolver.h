#pragma once
// How a model's events are resolved: its own event tables and its libpfm4 PMU.
#include "cpu/cpu_info.h"
#include "events/event.h"
#include "model/model.h"

namespace topdown::events {

// Tables come from the events/ folder beside the model file, in the order the
// model lists them (the first that knows an event wins); a model without a
// libpfm4 PMU does not consult libpfm4 at all, so that the host's PMU never
// answers for another CPU.
ResolverConfig resolver_config(const model::Model& model, const cpu::CpuInfo& cpu);

}  // namespace topdown::events
