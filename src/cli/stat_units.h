#pragma once
// stat --per-thread, --per-core, --per-socket: the live counts of each
// placement (a CPU or a thread) grouped into the units of the view, the way
// import groups perf's rows.
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "aggregate/aggregate.h"
#include "cli/commands.h"
#include "collect/collect.h"

namespace topdown::cli {

class LiveUnits {
 public:
  // Throws Error when `target` cannot be split into `view`'s units: cores
  // and sockets need CPUs counted (-a, -C), threads need CPUs or -p.
  LiveUnits(aggregate::View view, const StatOptions& options, const collect::Target& target);

  // With CPUs counted, a :percore event can be counted too: each CPU's unit
  // gets its core's sum (aggregate::Request::core_wide_events), a core's or
  // socket's the sum of its CPUs.
  bool counts_core_wide_events() const { return topology_.has_value(); }
  void add_core_wide_event(const std::string& name) { core_wide_events_.insert(name); }

  aggregate::Aggregation split(const std::vector<counts::Place>& places) const;

 private:
  aggregate::View view_;
  std::optional<aggregate::Topology> topology_;  // when CPUs are counted
  std::set<std::string, std::less<>> core_wide_events_;
};

}  // namespace topdown::cli
