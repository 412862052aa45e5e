#pragma once
// One perf_event group: a leader and its members, opened on one target,
// scheduled onto the PMU as a unit, switched on and off together.
#include <linux/perf_event.h>

#include <cstddef>
#include <cstdint>
#include <span>
#include <vector>

#include "perf/fd.h"

namespace topdown::perf {

// Fills values[i] with the value of the event whose id is ids[i] from the
// words read() gave for a leader opened with kReadGroup, and `times` with the
// leader's. False for a short read, another number of events or an id that
// is not in `ids`. Pure, for tests.
bool parse_group_read(std::span<const uint64_t> words, std::span<const uint64_t> ids, std::span<uint64_t> values,
                      Times& times);

class Group {
 public:
  explicit Group(Target target = {}) : target_(target) {}

  // Opens `attr` as the next event: the leader first, then its members. 0, or
  // the errno perf_event_open gave (the group is then unchanged).
  int add(const perf_event_attr& attr);

  std::size_t size() const { return fds_.size(); }
  bool empty() const { return fds_.empty(); }
  const Target& target() const { return target_; }
  int fd(std::size_t event) const { return fds_[event].get(); }
  int leader() const { return fd(0); }
  // The kernel's id of event `event` (PERF_EVENT_IOC_ID), which samples and
  // group reads name it by; 0 without PERF_FORMAT_ID in its read format.
  uint64_t id(std::size_t event) const { return ids_[event]; }

  // ioctl on the whole group: 0 or the errno.
  int enable() const;
  int disable() const;
  int reset() const;

  // One read() of the group, whose events were opened with kReadGroup:
  // values[i] is event i's value (values has size() entries), `times` the
  // leader's. 0, or the failure as read_failure() spells it.
  int read(std::span<uint64_t> values, Times& times);

  // Maps one page per event, as rdpmc needs for every event it reads; false
  // when the kernel refuses. Idempotent.
  bool map_pages();
  const perf_event_mmap_page* page(std::size_t event) const {
    return static_cast<const perf_event_mmap_page*>(pages_[event].address());
  }

 private:
  int ioctl_group(unsigned long request) const;

  Target target_;
  std::vector<Fd> fds_;
  std::vector<uint64_t> ids_;     // PERF_EVENT_IOC_ID of each event (0 without ids in its read format)
  std::vector<uint64_t> buffer_;  // one group read, sized as the group grows
  std::vector<Mapping> pages_;    // unmapped before the descriptors close
};

}  // namespace topdown::perf
