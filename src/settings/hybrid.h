#pragma once
// Where stat counts each core type of a hybrid CPU (Alder Lake and later,
// and Arm big.LITTLE systems, whose core kinds are its types): every core
// type has its own PMU, with its own perf type and CPUs, and its own tree
// (model). Pure functions of the CPU, the model and the target.
#include <set>
#include <string>
#include <string_view>
#include <vector>

#include "aggregate/aggregate.h"
#include "collect/collect.h"
#include "cpu/cpu_info.h"
#include "model/model.h"
#include "schedule/plan.h"
#include "settings/options.h"

namespace topdown::settings {

struct CoreTypePlacement {
  std::string core_type;  // "P-core", as the model names it (an Arm kind's: its title)
  std::string pmu;        // "cpu_core", "armv8_pmuv3_1"
  int pmu_type = -1;      // perf_event_attr.type of that PMU
  // The CPUs of that type; with -a or -C the target's CPUs of that type
  // (possibly none: the type is then not counted).
  std::vector<int> cpus;
};

// Where the groups of `model`'s tree open on this hybrid CPU. Throws Error
// when the CPU has no PMU of the model's (a hybrid model on a CPU that is
// not, or the reverse), naming the PMUs it has.
CoreTypePlacement core_type_placement(const cpu::CpuInfo& cpu, const model::Model& model,
                                      const collect::Target& target);

// The plan of one core type's tree.
struct CoreTypePlan {
  model::Model model;
  model::RunVariables vars;
  schedule::Plan plan;
};

// Whether `types` (a model's and its companion's or other core kinds')
// are counted each on its own PMU and CPUs: `cpu` has cores of several
// types and the models are theirs (on an Arm CPU also a single kind's, the
// others without a model).
bool counts_core_types(const cpu::CpuInfo& cpu, const std::vector<CoreTypePlan>& types);

// One core type as stat and serve count it beside the others.
struct PlacedCoreType {
  const CoreTypePlan* type = nullptr;
  CoreTypePlacement placement;
  std::set<std::string, std::less<>> core_wide_events;  // its :percore events (CountedGroups)
  std::vector<collect::CounterGroup> groups;            // its groups, as in PlacedCoreTypes::groups
};

struct PlacedCoreTypes {
  // Those the target has CPUs of (with -C maybe not every type; all when it
  // counts tasks), in the order of the plans.
  std::vector<PlacedCoreType> types;
  // Their groups (core_type_groups), each type's on its PMU and CPUs.
  std::vector<collect::CounterGroup> groups;
};

// Where each of `types` counts `target`, and all their groups. Throws
// Error as core_type_placement does.
PlacedCoreTypes place_core_types(const cpu::CpuInfo& cpu, const std::vector<CoreTypePlan>& types, aggregate::View per,
                                 const collect::Target& target);

// One core type's groups as stat opens them beside the other type's: each
// event named pmu/EVENT/ as perf names a hybrid CPU's events (so that the
// two trees' events, INST_RETIRED.ANY in both, stay apart in one count), and,
// counting CPUs, opened only on the type's CPUs.
std::vector<collect::CounterGroup> core_type_groups(std::vector<collect::CounterGroup> groups,
                                                    const CoreTypePlacement& placement);

// One core type's groups as record samples them beside the other type's:
// under their own names (the data file names each group's PMU), opened only
// on the type's CPUs, where the leaders of a task's groups sample it while
// it runs on that type.
std::vector<collect::CounterGroup> sampled_core_type_groups(std::vector<collect::CounterGroup> groups,
                                                            const CoreTypePlacement& placement);

// One core type's counts out of a run of every type's groups: its events
// (named by core_type_groups) under their own names; of `places`, those
// that counted any of them.
counts::Sample core_type_counts(const counts::Sample& sample, std::string_view pmu);
std::vector<counts::Place> core_type_places(const std::vector<counts::Place>& places, std::string_view pmu);

// --no-multiplex on a hybrid CPU: the groups of each run, given each core
// type's groups (`by_type`). Run k opens group k of every type that has
// one: the types' groups never compete (each type counts on its own PMU,
// within its own model's counters), so the command runs as many times as
// the type with the most groups has groups, not as both have together.
std::vector<std::vector<collect::CounterGroup>> side_by_side_runs(
    const std::vector<std::vector<collect::CounterGroup>>& by_type);

// Whether `cpu` is hybrid and `model` the tree of one of its core types:
// the health check then counted on one core type only, so each type plans
// with the counters its own model declares.
bool plans_by_core_type(const cpu::CpuInfo& cpu, const model::Model& model);

}  // namespace topdown::settings
