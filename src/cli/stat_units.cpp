#include "cli/stat_units.h"

#include <fmt/format.h>

#include "common/error.h"

namespace topdown::cli {

LiveUnits::LiveUnits(aggregate::View view, const StatOptions& options, const collect::Target& target) : view_(view) {
  const std::string_view flag = aggregate::view_name(view);
  if (options.report.columns) {
    throw Error(fmt::format("--columns shows one line per record, not one per unit; leave out --columns or {}", flag));
  }
  if (!target.cpus.empty()) {
    topology_ = aggregate::Topology::read_sysfs();
    return;
  }
  if (view != aggregate::View::Thread) {
    throw Error(fmt::format("{} needs system-wide counting; add -a (every CPU) or -C LIST", flag));
  }
  if (target.pids.empty()) {
    throw Error("--per-thread cannot split a command: its threads and children are counted together; "
                "attach to it with -p PID or count every CPU with -a");
  }
}

aggregate::Aggregation LiveUnits::split(const std::vector<counts::Place>& places) const {
  aggregate::Request request;
  request.view = view_;
  request.topology = topology_ ? &*topology_ : nullptr;
  request.core_wide_events = core_wide_events_;
  return aggregate::aggregate(places, request);
}

}  // namespace topdown::cli
