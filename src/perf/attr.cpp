#include "perf/event.h"

namespace topdown::perf {

perf_event_attr make_attr(const Event& event, const AttrOptions& options) {
  perf_event_attr attr{};
  attr.size = sizeof attr;
  attr.type = event.type;
  attr.config = event.config;
  attr.config1 = event.config1;
  attr.config2 = event.config2;
  attr.exclude_user = event.exclude_user ? 1 : 0;
  attr.exclude_kernel = event.exclude_kernel ? 1 : 0;
  attr.exclude_hv = event.exclude_hv ? 1 : 0;
  attr.precise_ip = static_cast<uint64_t>(event.precise) & 3u;
  attr.read_format = options.read_format;
  attr.disabled = options.disabled ? 1 : 0;
  attr.enable_on_exec = options.enable_on_exec ? 1 : 0;
  attr.inherit = options.inherit ? 1 : 0;
  return attr;
}

}  // namespace topdown::perf
