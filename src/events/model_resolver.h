#pragma once
// How a model's events are resolved: its own event tables and its libpfm4 PMU.
#include "cpu/cpu_info.h"
#include "events/event.h"
#include "model/model.h"

namespace topdown::events {

// Tables come from the events/ folder beside the model file, in the order the
// model lists them (the first that knows an event wins); core events open on
// the model's pmu (cpu_core or cpu_atom of a hybrid CPU, an Arm core kind's),
// as the sysfs `cpu` was read from registers it; a model without a
// libpfm4 PMU does not consult libpfm4 at all, so that the host's PMU never
// answers for another CPU.
ResolverConfig resolver_config(const model::Model& model, const cpu::CpuInfo& cpu);

// For a CPU other than this machine's (--cpu, imported counts): the first CPU
// the model lists, and none of this machine's sysfs PMUs, whose formats and
// named events say nothing about the other CPU (PMU terms use the x86 core
// layout of the model's vendor).
ResolverConfig offline_resolver_config(const model::Model& model);

}  // namespace topdown::events
