#pragma once
// stat --per-thread, --per-core, --per-socket: the live counts of each
// placement (a CPU or a thread) grouped into the units of the view, the way
// import groups perf's rows.
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "aggregate/aggregate.h"
#include "collect/collect.h"

namespace topdown::cli {

class LiveUnits {
 public:
  // `target` can be split into `view`'s units (settings::check_unit_view).
  // With CPUs counted, this machine's topology groups them, and each
  // `core_wide_events` (:percore) of a CPU's unit gets its core's sum, a
  // core's or socket's the sum of its CPUs.
  LiveUnits(aggregate::View view, const collect::Target& target, std::set<std::string, std::less<>> core_wide_events);

  aggregate::Aggregation split(const std::vector<counts::Place>& places) const;

 private:
  aggregate::View view_;
  std::optional<aggregate::Topology> topology_;  // when CPUs are counted
  std::set<std::string, std::less<>> core_wide_events_;
};

}  // namespace topdown::cli
