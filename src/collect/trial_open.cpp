#include <cerrno>
#include "collect/collect.h"

#include "perf/fd.h"

namespace topdown::collect {
namespace {

// TOPDOWN.SLOTS (event 0x00, umask 0x04) on the field's PMU.
constexpr uint64_t kSlotsConfig = 0x0400;

}  // namespace

int trial_open(const events::Encoding& event) {
  if (event.type == events::Encoding::kAbsentPmu) return ENODEV;
  perf::Event trial = event.perf_event(false);
  perf::Target target;
  if (event.uncore) {
    target = {.pid = -1, .cpu = event.uncore_cpus.empty() ? 0 : event.uncore_cpus.front()};
    if (!event.box_types.empty()) trial.type = event.box_types.front();
  }
  perf::Opened leader;
  if (event.topdown_metric) {
    perf::Event slots = trial;
    slots.config = kSlotsConfig;
    leader = perf::open_event(perf::make_attr(slots, {.read_format = perf::kReadGroup, .disabled = true}), target);
    if (leader.error != 0) return leader.error;
  }
  const int group_fd = event.topdown_metric ? leader.fd.get() : -1;
  const auto options =
      perf::AttrOptions{.read_format = event.topdown_metric ? perf::kReadGroup : perf::kReadTimes, .disabled = true};
  return perf::open_event(perf::make_attr(trial, options), target, group_fd).error;
}

}  // namespace topdown::collect
