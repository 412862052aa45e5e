#include "collect/collect.h"

namespace topdown::collect {

perf_event_attr make_attr(const events::Encoding& encoding, const Options& options, bool is_leader, Start start) {
  return perf::make_attr(encoding.perf_event(options.include_kernel),
                         {.read_format = perf::kReadTimes,
                          .disabled = is_leader,
                          .enable_on_exec = is_leader && start == Start::OnExec,
                          .inherit = options.count_children});
}

}  // namespace topdown::collect
