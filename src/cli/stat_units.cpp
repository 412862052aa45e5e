#include "cli/stat_units.h"

namespace topdown::cli {

LiveUnits::LiveUnits(aggregate::View view, const collect::Target& target,
                     std::set<std::string, std::less<>> core_wide_events)
    : view_(view), core_wide_events_(std::move(core_wide_events)) {
  if (!target.cpus.empty()) topology_ = aggregate::Topology::read_sysfs();
}

aggregate::Aggregation LiveUnits::split(const std::vector<counts::Place>& places) const {
  aggregate::Request request;
  request.view = view_;
  request.topology = topology_ ? &*topology_ : nullptr;
  request.core_wide_events = core_wide_events_;
  return aggregate::aggregate(places, request);
}

}  // namespace topdown::cli
