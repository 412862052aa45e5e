#include <algorithm>
#include <chrono>
#include <cstdint>
#include <vector>

#include "cpu/cpu_info.h"
#include "perf/event.h"
#include "perf/group.h"

namespace topdown::cpu {
namespace {

perf::Event cycles_event(bool amd) {
  perf::Event cycles;
  cycles.name = "cycles";
  if (amd) {
    // ls_not_halted_cyc: the generic cycles event may be mapped elsewhere.
    cycles.type = PERF_TYPE_RAW;
    cycles.config = 0x76;
  } else {
    cycles.type = PERF_TYPE_HARDWARE;
    cycles.config = PERF_COUNT_HW_CPU_CYCLES;
  }
  cycles.exclude_kernel = true;
  cycles.exclude_hv = true;
  return cycles;
}

void spin_for_a_millisecond() {
  const auto end = std::chrono::steady_clock::now() + std::chrono::milliseconds(1);
  volatile uint64_t sink = 0;
  while (std::chrono::steady_clock::now() < end) {
    for (int i = 0; i < 1000; ++i) sink = sink + static_cast<uint64_t>(i);
  }
}

struct GroupResult {
  bool leader_opened = false;
  bool scheduled = false;  // the group got onto the PMU at all
  int advanced = 0;        // members whose count moved
};

GroupResult run_group(int size, bool amd) {
  GroupResult result;
  const perf::Event cycles = cycles_event(amd);
  perf::Group group;  // this thread
  for (int i = 0; i < size; ++i) {
    const perf_event_attr attr = perf::make_attr(cycles, {.read_format = perf::kReadGroup, .disabled = group.empty()});
    if (group.add(attr) != 0) return result;
    result.leader_opened = true;
  }
  if (group.enable() != 0) return result;
  spin_for_a_millisecond();
  group.disable();

  std::vector<uint64_t> values(group.size());
  perf::Times times;
  if (group.read(values, times) != 0 || times.running == 0) return result;
  result.scheduled = true;
  result.advanced = static_cast<int>(std::count_if(values.begin(), values.end(), [](uint64_t v) { return v > 0; }));
  return result;
}

}  // namespace

std::optional<int> probe_working_counters(int candidates) {
  if (candidates <= 0) return std::nullopt;
  const bool amd = read_cpuid().vendor == Vendor::Amd;
  // A group larger than the PMU can hold is never scheduled; shrink it until it
  // is, then the members that did not advance sit on counters that do not count.
  for (int size = candidates; size > 0; --size) {
    const GroupResult result = run_group(size, amd);
    if (!result.leader_opened) return std::nullopt;
    if (result.scheduled) return result.advanced;
  }
  return 0;
}

}  // namespace topdown::cpu
