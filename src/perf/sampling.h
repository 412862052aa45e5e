#pragma once
// The perf_event_attr fields of leader sampling (perf's `{a,b,c}:S`): the
// leader of a group samples, and each of its samples reads the whole group.
#include <linux/perf_event.h>

#include <cstdint>

namespace topdown::perf {

// What each sample carries: the sampling event's id first (so a record's
// stream is known before its layout), where and when, and the group's
// values (read_format kReadGroup: nr, times, then a value and an id each).
// Every other record ends with the same id, tid, time and cpu
// (sample_id_all), so records of many events can share one ring. Without
// call stacks the callchain holds only the user-mode address where the task
// entered the kernel (set_sampling limits it to that one frame), so that
// time spent in the kernel on a function's behalf (page faults, system
// calls) is charged to that function.
constexpr uint64_t kSampleType = PERF_SAMPLE_IDENTIFIER | PERF_SAMPLE_IP | PERF_SAMPLE_TID | PERF_SAMPLE_TIME |
                                 PERF_SAMPLE_CPU | PERF_SAMPLE_READ | PERF_SAMPLE_CALLCHAIN;

// How often the leader samples: `frequency` samples per second of the
// group's running time (the kernel adjusts the period), or every `period`
// events. A frequency wins when both are set.
struct SampleRate {
  uint64_t frequency = 0;
  uint64_t period = 0;
};

// How the callers of each sample are recorded.
enum class CallGraph {
  None,           // the one user frame above
  FramePointers,  // -g: the kernel walks the frame pointers (user, and kernel frames when counted)
  Dwarf,          // --call-graph dwarf: user registers and a copy of the stack, unwound at report time
};

inline constexpr uint16_t kDefaultMaxStack = 127;     // as perf: kernel.perf_event_max_stack's default
inline constexpr uint32_t kDefaultStackBytes = 8192;  // as perf's --call-graph dwarf
inline constexpr uint32_t kMaxStackBytes = 65528;     // the largest a sample record (u16 size) can carry
inline constexpr uint64_t kDwarfSampleType = PERF_SAMPLE_REGS_USER | PERF_SAMPLE_STACK_USER;

struct CallStacks {
  CallGraph mode = CallGraph::None;
  uint16_t max_stack = kDefaultMaxStack;      // frames of a callchain (-g; kernel frames with dwarf)
  uint32_t stack_bytes = kDefaultStackBytes;  // user stack copied per sample (dwarf), a multiple of 8
  bool kernel_frames = false;                 // the events count in the kernel: keep its frames
};

// The sample_type of every event for `call_stacks`.
uint64_t sample_type(const CallStacks& call_stacks);

struct SamplingOptions {
  bool leader = false;  // samples at `rate`; members only answer its reads
  SampleRate rate;
  bool tracks_tasks = false;  // also writes mmap2, comm, fork and exit records (one event per ring)
  bool build_id = false;      // mmap2 records carry the build id (kernel 5.12 on) instead of device and inode
  uint32_t wakeup_bytes = 0;  // poll() wakes when this many bytes wait in the ring (0: every sample)
  CallStacks call_stacks{};
};

// Sets the sampling fields of `attr` (made by make_attr with read_format
// kReadGroup).
void set_sampling(perf_event_attr& attr, const SamplingOptions& options);

}  // namespace topdown::perf
