#pragma once
// The perf stat command lines that collect exactly what a plan needs, for
// users who count with perf alone (on a machine without topdown) and analyse
// the file with `topdown import`.
#include <string>
#include <vector>

#include "cpu/cpu_info.h"
#include "model/model.h"
#include "perf/sampling.h"
#include "schedule/plan.h"

namespace topdown::cli {

// One `perf stat -x,` line with the plan's core groups (each event named as
// the model names it, so the file imports by name) running `command`; uncore
// groups, which only count system-wide, go on a second `perf stat -a` line.
// Comment lines (#) say what to do with the files, `import_command` (the
// topdown import line, without the file) included.
// The counts go to `file` (perf.csv), the uncore counts to FILE-uncore.csv.
std::string perf_stat_commands(const schedule::Plan& plan, const std::vector<std::string>& command,
                               const std::string& import_command, const std::string& file = "perf.csv");

}  // namespace topdown::cli

namespace topdown::cli {

// The `perf record` line that samples the plan's core groups as `topdown
// record` does: one `-e '{...}:S'` per group (leader sampling), at `rate`,
// with `call_stacks`, running `command`, into `file`. Uncore groups cannot
// sample a task and are left out.
std::string perf_record_command(const schedule::Plan& plan, const std::vector<std::string>& command,
                                const perf::SampleRate& rate, const perf::CallStacks& call_stacks,
                                const std::string& file = "perf.data");

}  // namespace topdown::cli

namespace topdown::cli {

// Comment lines for the top of a printed perf command: the plan's Arm core
// PMU was named by guess (`cpu` registers no such PMU), and where to find
// its real name on the machine that counts. Empty when nothing was guessed.
std::string assumed_pmu_note(const schedule::Plan& plan, const cpu::CpuInfo& cpu);

// Comment lines after a printed perf stat command of a model whose formulas
// weigh events by retire latencies with no published mean: how perf measures
// them (TPEBS rows that import reads). Empty for every other model.
std::string retire_latency_note(const model::Model& model);

}  // namespace topdown::cli
