#pragma once
// Scheduling: which events a run needs and how they are packed into counter
// groups that the PMU can count at the same time.
#include <map>
#include <string>
#include <vector>

#include "counts/counts.h"
#include "cpu/cpu_info.h"
#include "events/event.h"
#include "model/dependencies.h"
#include "model/model.h"
#include "schedule/countable.h"

namespace topdown::schedule {

// The counters a group may use.
struct CounterBudget {
  int general = 4;  // general counters that really count (after the health check)
  int fixed = 0;    // fixed counters (0..3 by index on Intel; Arm's cycle counter is 0)
  // The core PMUs the probe found on the machine that counts
  // (cpu::CpuInfo::core_pmu_names), whose groups the limit binds; empty when
  // planning for another machine's CPU, whose PMUs are known by name only.
  std::vector<std::string> core_pmus = {};
  // One general counter fewer than the machine has: the NMI watchdog holds it.
  bool nmi_watchdog = false;
};

// Arm reports no counter count to user space: without the health check (no
// PMU, not permitted, another machine's CPU) plans count on the six event
// counters of Neoverse N1, V1, N2 and V2, beside the cycle counter.
inline constexpr int kArmEventCountersWithoutCheck = 6;

// The counters a plan may use on this machine: the general counters the
// health check found counting (else what the CPU reports; on Arm, which
// reports none, kArmEventCountersWithoutCheck), and the model's fixed
// counters (Intel's three when it does not say; Arm's cycle counter); with
// this machine's core PMUs when `model` is this CPU's.
CounterBudget host_budget(const cpu::CpuInfo& cpu, const model::Model& model);

struct Selection {
  int max_level = 1;  // tree depth to compute, 1..6
  // Every Info metric, even those that need another counter group; by
  // default only those whose events fit the tree's groups are computed.
  bool all_info = false;
  std::vector<std::string> extra_events;  // -e: counted and printed as they are
};

struct Group {
  std::string pmu;                       // all members count on one PMU
  std::vector<events::Encoding> events;  // events[0] leads
  counts::GroupCopies copies{};          // events an earlier group counts too, counted again here
  int general_counters_used(const CounterBudget& budget) const;
};

struct Plan {
  std::vector<std::string> nodes;     // selected node names, tree order, then Info metrics
  model::IdentityChoice identities;   // nodes computed through their identity
  std::vector<std::string> left_out;  // Info metrics not computed: no room
  // Info metrics not computed: an event of theirs has no encoding for this
  // CPU (a metric file's power/cstate events, say).
  std::vector<std::string> uncountable;
  // Nodes (tree and Info), and -e events, that this machine cannot count,
  // with the reason (Countable::why_not): a node of `nodes` stays there and
  // is n/a; an Info metric that would ride along is left out.
  std::map<std::string, std::string, std::less<>> not_counted;
  // The events of those nodes this machine cannot count, with the reason, for
  // eval::Options::uncountable_events.
  std::map<std::string, std::string, std::less<>> uncountable_events;
  std::vector<Group> groups;
  CounterBudget budget;
  // When the groups rotate: per node, the group (1-based index into groups)
  // that counts all of its events (some as copies, counts::EventKey),
  // for eval::Options::node_groups. A node missing here is spread over groups.
  std::map<std::string, int, std::less<>> node_groups;

  // True when the groups cannot all be counted at once and will rotate.
  bool multiplexed() const;
  int core_groups() const;  // groups on the core PMU (the ones that rotate)
};

// Builds the plan: selects the nodes, chooses identities when they let the
// events fit in fewer groups, and packs events into groups that respect the
// budget and every event's counter constraints. Info metrics come after the
// tree, so that tree nodes keep whole groups.
// Nodes whose events `countable` says this machine cannot count are not
// counted (Plan::not_counted).
// Throws Error for events no group can hold (a constraint no counter meets).
Plan make_plan(const model::Model& model, const model::RunVariables& vars, const Selection& selection,
               const events::Resolver& resolver, const CounterBudget& budget, const Countable& countable = Countable());

// Tree nodes up to max_level (in file order), then every Info metric when
// all_info is set.
std::vector<std::string> select_nodes(const model::Model& model, const Selection& selection);

// Packs already-resolved events, in order, into groups. Events that share a
// `together` index (a node's) are kept in one group when they fit, a new one
// if need be, where events that an earlier group counts too are counted
// again as the group's copies (Group::copies). An event may be listed under several
// indexes; events of non-core PMUs and single-event indexes are not repeated.
std::vector<Group> pack(const std::vector<events::Encoding>& encodings, const std::vector<int>& together,
                        const CounterBudget& budget);

// Can these events be counted in one group: a distinct general counter for
// each general event that its counter_mask allows, distinct fixed counters?
bool fits(const std::vector<events::Encoding>& group, const CounterBudget& budget);

// Human-readable plan for --print-groups.
std::string describe(const Plan& plan);

}  // namespace topdown::schedule
