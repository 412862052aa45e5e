#pragma once
// Owned event mappings, and the system calls on one perf event:
// open with close-on-exec, read() that retries when a signal interrupts it.
#include <linux/perf_event.h>
#include <sys/mman.h>
#include <sys/types.h>

#include <cstddef>
#include <cstdint>
#include <string>
#include <utility>

#include "common/fd.h"

namespace topdown::perf {

// Events' descriptors are plain owned descriptors.
using topdown::Fd;

// An owned mmap of an event: one page for rdpmc and the times, or a sampling
// ring buffer.
class Mapping {
 public:
  Mapping() = default;
  // `length` bytes of `fd` from offset 0, shared; invalid when mmap fails.
  static Mapping map(int fd, std::size_t length, int protection = PROT_READ);
  Mapping(Mapping&& other) noexcept
      : address_(std::exchange(other.address_, nullptr)), length_(std::exchange(other.length_, 0)) {}
  Mapping& operator=(Mapping&& other) noexcept;
  Mapping(const Mapping&) = delete;
  Mapping& operator=(const Mapping&) = delete;
  ~Mapping() { reset(); }

  void* address() const { return address_; }
  bool valid() const { return address_ != nullptr; }
  void reset();

 private:
  void* address_ = nullptr;
  std::size_t length_ = 0;
};

// What an event counts: perf_event_open's pid and cpu. The default is the
// calling thread on any CPU; pid -1 with a CPU counts everything on it. With
// `cgroup`, pid is a descriptor of a cgroup's directory and the CPU counts
// only that cgroup's tasks (PERF_FLAG_PID_CGROUP; a CPU is then required).
struct Target {
  pid_t pid = 0;
  int cpu = -1;
  bool cgroup = false;
};

// The descriptor of `attr` opened on `target`, in the group of `group_fd`
// (-1: a new group), closed on exec; or the errno perf_event_open gave.
struct Opened {
  Fd fd;
  int error = 0;
};
Opened open_event(const perf_event_attr& attr, Target target, int group_fd = -1);

// Why a read failed: 0 is success, kShortRead a read() that returned fewer
// bytes than asked or a group read of other events than the group's (the
// group is not what the caller expects), anything else an errno.
constexpr int kShortRead = -1;
std::string read_failure(int failure);

// read() of exactly `words` 64-bit words, retried when a signal interrupts it.
int read_words(int fd, uint64_t* out, std::size_t words);

struct Times {
  uint64_t enabled = 0;  // ns
  uint64_t running = 0;  // ns
};

// One event opened with read_format kReadTimes.
struct Reading {
  uint64_t value = 0;
  Times times;
};
int read_event(int fd, Reading& out);

}  // namespace topdown::perf
