#pragma once
// What `topdown record` decides before it samples: the rate and the groups.
// The plan, the target and the identity are stat's (settings/stat.h).
#include <cstdint>
#include <string>
#include <vector>

#include "collect/collect.h"
#include "cpu/cpu_info.h"
#include "model/model.h"
#include "perf/sampling.h"
#include "schedule/plan.h"
#include "settings/options.h"

namespace topdown::settings {

// About a thousand samples per second of each group's running time: enough
// for a profile of a one-second run, little enough to cost a few percent.
constexpr uint64_t kDefaultFrequency = 1000;

// -F, -c, or kDefaultFrequency.
perf::SampleRate sample_rate(const RecordOptions& options);

// -g, --call-graph fp|dwarf[,SIZE] and --max-stack: how callers are
// recorded. Throws Error for a mode or size it cannot record, or for
// --max-stack without call stacks.
perf::CallStacks call_stacks(const RecordOptions& options);

// Throws Error when record cannot sample: a model for another vendor's CPU
// (--cpu), or nothing to sample (no command, -p, -a or -C).
void check_recordable(const RecordOptions& options, const cpu::CpuInfo& cpu, const model::Model& model);

// The plan's groups that can be sampled: those of the core PMU (a socket's
// uncore PMU cannot sample a task); :percore events are left out as stat
// leaves them out of a whole-run count.
std::vector<collect::CounterGroup> sampled_groups(const schedule::Plan& plan, const collect::Target& target);

}  // namespace topdown::settings
