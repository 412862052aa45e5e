#include "events/event.h"

namespace topdown::events {

perf::Event Encoding::perf_event(bool include_kernel) const {
  perf::Event event;
  event.name = name;
  event.type = type;
  event.config = config;
  event.config1 = config1;
  event.config2 = config2;
  const bool kernel_only = exclude_user && !exclude_kernel;
  event.exclude_user = exclude_user;
  event.exclude_kernel = exclude_kernel || (!include_kernel && !kernel_only);
  event.exclude_hv = event.exclude_kernel;
  event.precise = precise;
  return event;
}

}  // namespace topdown::events
