#include "perf/sampling.h"

#include "perf/user_registers.h"

namespace topdown::perf {

uint64_t sample_type(const CallStacks& call_stacks) {
  return call_stacks.mode == CallGraph::Dwarf ? kSampleType | kDwarfSampleType : kSampleType;
}

void set_sampling(perf_event_attr& attr, const SamplingOptions& options) {
  const CallStacks& stacks = options.call_stacks;
  attr.sample_type = sample_type(stacks);
  attr.sample_id_all = 1;
  switch (stacks.mode) {
    case CallGraph::None:
      // The user-mode address only: no kernel frames, and no unwinding past
      // the first user frame (its cost would grow with the stack).
      attr.exclude_callchain_kernel = 1;
      attr.sample_max_stack = 1;
      break;
    case CallGraph::FramePointers:
      attr.exclude_callchain_kernel = stacks.kernel_frames ? 0 : 1;
      attr.sample_max_stack = stacks.max_stack;
      break;
    case CallGraph::Dwarf:
      // The kernel's frames from the callchain, the user's from unwinding
      // the copied stack (whose first frame is where a kernel sample's task
      // entered the kernel).
      if (stacks.kernel_frames) {
        attr.exclude_callchain_user = 1;
        attr.sample_max_stack = stacks.max_stack;
      } else {
        attr.exclude_callchain_kernel = 1;
        attr.sample_max_stack = 1;
      }
      attr.sample_regs_user = user_register_mask();
      attr.sample_stack_user = stacks.stack_bytes;
      break;
  }
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
