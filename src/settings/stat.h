#pragma once
// What `topdown stat` decides before it counts: the run variables and
// counters to plan for, what it counts (the command, processes or CPUs),
// which of the plan's groups are opened, and which options cannot go
// together. Pure functions of the options, the CPU and the model, so the
// decisions are tested without counting anything.
#include <filesystem>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "collect/collect.h"
#include "cpu/cpu_info.h"
#include "model/model.h"
#include "schedule/plan.h"
#include "settings/options.h"

namespace topdown::settings {

// What stat plans with.
struct StatPlanning {
  bool this_machine = false;  // the model is this CPU's (not --cpu another's)
  model::RunVariables vars;
  schedule::Selection selection;
  schedule::CounterBudget budget;
  // What this machine counts (find_countable); everything until found, and
  // for another machine's CPU.
  schedule::Countable countable;
};

// `given_latencies`: --retire-latencies FILE's, read once for every core type.
StatPlanning plan_stat(const StatOptions& options, const cpu::CpuInfo& cpu, const model::Model& model,
                       const model::RetireLatencies& given_latencies);

// What the machine counts of `model`'s events, found once (stat, record and
// serve at start, info): sysfs (its core PMU's format terms and caps, the
// topdown-* events, the uncore PMUs), then one trial `open` per class of
// event (collect::trial_open; empty for a copy of another machine's /sys,
// judged by its sysfs alone). Where PERF_METRICS does not count and
// --perf-metrics was left out, the plan reads no PERF_METRICS
// (planning.vars.perf_metrics). Nothing is refused for another machine's CPU
// (--cpu) or a machine without a core PMU (collect says why it counts
// nothing).
void find_countable(StatPlanning& planning, Toggle perf_metrics, const cpu::CpuInfo& cpu, const model::Model& model,
                    const events::Resolver& resolver, const schedule::TrialOpen& open);

// The nodes and Info metrics of `model` (file order) that need an event
// `countable` says this machine cannot count, each with the reason: what
// the machine's partial PMU costs the model (`topdown info`).
std::vector<std::pair<std::string, std::string>> uncountable_nodes(const model::Model& model,
                                                                   const model::RunVariables& vars,
                                                                   const events::Resolver& resolver,
                                                                   const schedule::Countable& countable);

// Whether a plan reads Intel's PERF_METRICS: on or off when the option says;
// for this machine when its kernel offers the fields; for another CPU's
// model (--cpu) on, as its kernel would.
bool use_perf_metrics(Toggle choice, const cpu::CpuInfo& cpu, const model::Model& model);

// The counters a plan may use: --counters when given; for this machine's
// model what the health check found, else what the CPU reports; for another
// CPU's model (--cpu), or a core type's of this hybrid CPU, what the model
// says for its SMT setting (an Arm model, which says nothing, the six event
// counters of schedule::kArmEventCountersWithoutCheck; the model's too for a
// copy of another machine's /sys, whose counters are unknown). Fixed
// counters as the model says (Intel's three when it does not). Where the NMI
// watchdog holds a counter of this machine, one general counter fewer
// (CounterBudget::nmi_watchdog), unless --counters says.
schedule::CounterBudget counter_budget(const cpu::CpuInfo& cpu, const model::Model& model, bool smt_enabled,
                                       std::optional<int> counters_override);

// The sentence saying that the NMI watchdog holds one of the machine's
// counters and how to free it (toplev's advice); empty when it holds none.
std::string nmi_watchdog_note(const schedule::CounterBudget& budget);

// Throws Error when stat cannot count: another machine's CPU (--root), a
// model for another vendor's CPU (--cpu), or nothing to count (no command,
// -p, -a or -C).
void check_countable(const StatOptions& options, const cpu::CpuInfo& cpu, const model::Model& model);

// Throws Error for options that cannot be counted together: --no-multiplex
// with -I, --columns with -G.
void check_live_options(const StatOptions& options);

// Throws Error for what -r N (N > 1) cannot repeat: intervals, running
// processes, CPUs or cgroups (-p, -a, -C, -G: nothing to rerun), reports per
// unit.
void check_repeat_options(const StatOptions& options);

// What stat counts: the command, the -p processes, or the CPUs of -a or -C
// (checked against the online CPUs under `cpu_dir`; Error naming the list),
// and on them only the cgroups of -G (every CPU when -C is left out; Error
// naming a cgroup that does not exist).
collect::Target stat_target(const StatOptions& options,
                            const std::filesystem::path& cpu_dir = "/sys/devices/system/cpu");

// --per-thread, --per-core, --per-socket: throws Error when `target` cannot
// be split into the units of options.per (cores and sockets need CPUs
// counted, threads CPUs or -p) or when --columns asks for one line per
// record.
void check_unit_view(const StatOptions& options, const collect::Target& target);

// The groups to open for a plan. A :percore event needs its core's threads
// added up per core: with units of counted CPUs (per != Global and -a or
// -C) aggregate does that and the event is counted (and listed in
// core_wide_events); otherwise it is left out, so that what uses it is n/a
// and names it instead of showing one thread's count as the core's.
struct CountedGroups {
  std::vector<collect::CounterGroup> groups;
  std::set<std::string, std::less<>> core_wide_events;
};
CountedGroups counted_groups(const schedule::Plan& plan, aggregate::View per, const collect::Target& target);

}  // namespace topdown::settings
