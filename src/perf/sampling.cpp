#include "perf/sampling.h"

namespace topdown::perf {

void set_sampling(perf_event_attr& attr, const SamplingOptions& options) {
  attr.sample_type = kSampleType;
  attr.sample_id_all = 1;
  // The user-mode address only: no kernel frames, and no unwinding past the
  // first user frame (its cost would grow with the stack).
  attr.exclude_callchain_kernel = 1;
  attr.sample_max_stack = 1;
  if (options.leader) {
    if (options.rate.frequency != 0) {
      attr.freq = 1;
      attr.sample_freq = options.rate.frequency;
    } else {
      attr.sample_period = options.rate.period;
    }
  }
  if (options.tracks_tasks) {
    attr.mmap = 1;
    attr.mmap2 = 1;
    attr.comm = 1;
    attr.comm_exec = 1;
    attr.task = 1;
    attr.build_id = options.build_id ? 1 : 0;
  }
  if (options.wakeup_bytes != 0) {
    attr.watermark = 1;
    attr.wakeup_watermark = options.wakeup_bytes;
  }
}

}  // namespace topdown::perf
