#include "collect/collect.h"

namespace topdown::collect {

perf_event_attr make_attr(const events::Encoding& encoding, const Options& options, bool is_leader, Start start) {
  perf_event_attr attr{};
  attr.size = sizeof(attr);
  attr.type = encoding.type;
  attr.config = encoding.config;
  attr.config1 = encoding.config1;
  attr.config2 = encoding.config2;
  // An event that asks for kernel only (":SUP") keeps its kernel counting;
  // otherwise the kernel is excluded unless the user asked for it.
  const bool kernel_only = encoding.exclude_user && !encoding.exclude_kernel;
  attr.exclude_user = encoding.exclude_user ? 1 : 0;
  attr.exclude_kernel = (encoding.exclude_kernel || (!options.include_kernel && !kernel_only)) ? 1 : 0;
  attr.exclude_hv = attr.exclude_kernel;
  attr.precise_ip = static_cast<uint64_t>(encoding.precise) & 3u;
  attr.read_format = PERF_FORMAT_TOTAL_TIME_ENABLED | PERF_FORMAT_TOTAL_TIME_RUNNING;
  attr.inherit = options.count_children ? 1 : 0;
  attr.disabled = is_leader ? 1 : 0;
  attr.enable_on_exec = is_leader && start == Start::OnExec ? 1 : 0;
  return attr;
}

}  // namespace topdown::collect
