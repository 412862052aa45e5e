#pragma once
// What `topdown record` decides before it samples: the rate, the groups and
// the header of its data file. The plan, the target and the identity are
// stat's (settings/stat.h).
#include <cstdint>
#include <string>
#include <vector>

#include "collect/collect.h"
#include "cpu/cpu_info.h"
#include "model/model.h"
#include "perf/sampling.h"
#include "recording/recording.h"
#include "schedule/plan.h"
#include "settings/options.h"

namespace topdown::settings {

// About a thousand samples per second of each group's running time: enough
// for a profile of a one-second run, little enough to cost a few percent.
constexpr uint64_t kDefaultFrequency = 1000;

// -F, -c, or kDefaultFrequency.
perf::SampleRate sample_rate(const RecordOptions& options);

// Throws Error when record cannot sample: a model for another vendor's CPU
// (--cpu), or nothing to sample (no command, -p, -a or -C).
void check_recordable(const RecordOptions& options, const cpu::CpuInfo& cpu, const model::Model& model);

// The plan's groups that can be sampled: those of the core PMU (a socket's
// uncore PMU cannot sample a task); :percore events are left out as stat
// leaves them out of a whole-run count.
std::vector<collect::CounterGroup> sampled_groups(const schedule::Plan& plan, const collect::Target& target);

// The data file's header (its groups are filled in by the sampling stage).
// Its command is the command line, "-p PID[,PID]", "-a" or "-C LIST", or
// "-a -- CMD" for CPUs sampled while a command runs.
// `model_name` is the model's name, or the --model path when one was given.
recording::Header record_header(const RecordOptions& options, const cpu::CpuInfo& cpu, const std::string& model_name,
                                const model::RunVariables& vars);

}  // namespace topdown::settings
