#include <linux/perf_event.h>
#include <sys/ioctl.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <vector>

#include "cpu/cpu_info.h"

namespace topdown::cpu {
namespace {

class EventFd {
 public:
  explicit EventFd(int fd) : fd_(fd) {}
  EventFd(EventFd&& other) noexcept : fd_(other.fd_) { other.fd_ = -1; }
  EventFd(const EventFd&) = delete;
  EventFd& operator=(const EventFd&) = delete;
  EventFd& operator=(EventFd&&) = delete;
  ~EventFd() {
    if (fd_ >= 0) close(fd_);
  }
  int get() const { return fd_; }
  bool valid() const { return fd_ >= 0; }

 private:
  int fd_;
};

EventFd open_cycles(bool amd, int group_fd) {
  perf_event_attr attr{};
  attr.size = sizeof attr;
  if (amd) {
    // ls_not_halted_cyc: the generic cycles event may be mapped elsewhere.
    attr.type = PERF_TYPE_RAW;
    attr.config = 0x76;
  } else {
    attr.type = PERF_TYPE_HARDWARE;
    attr.config = PERF_COUNT_HW_CPU_CYCLES;
  }
  attr.disabled = group_fd < 0;
  attr.exclude_kernel = 1;
  attr.exclude_hv = 1;
  attr.read_format =
      PERF_FORMAT_GROUP | PERF_FORMAT_TOTAL_TIME_ENABLED | PERF_FORMAT_TOTAL_TIME_RUNNING;
  const long fd = syscall(SYS_perf_event_open, &attr, 0, -1, group_fd, 0);
  return EventFd(static_cast<int>(fd));
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
  std::vector<EventFd> events;
  events.push_back(open_cycles(amd, -1));
  if (!events.front().valid()) return result;
  result.leader_opened = true;
  for (int i = 1; i < size; ++i) {
    events.push_back(open_cycles(amd, events.front().get()));
    if (!events.back().valid()) return result;
  }
  const int leader = events.front().get();
  if (ioctl(leader, PERF_EVENT_IOC_ENABLE, PERF_IOC_FLAG_GROUP) != 0) return result;
  spin_for_a_millisecond();
  ioctl(leader, PERF_EVENT_IOC_DISABLE, PERF_IOC_FLAG_GROUP);

  // Layout of a group read: nr, time_enabled, time_running, value[nr].
  std::vector<uint64_t> buffer(3 + static_cast<size_t>(size));
  const ssize_t bytes = read(leader, buffer.data(), buffer.size() * sizeof(uint64_t));
  if (bytes < static_cast<ssize_t>(3 * sizeof(uint64_t)) || buffer[2] == 0) return result;
  result.scheduled = true;
  const size_t values = std::min<size_t>(buffer[0], static_cast<size_t>(size));
  for (size_t i = 0; i < values; ++i) {
    if (buffer[3 + i] > 0) ++result.advanced;
  }
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
