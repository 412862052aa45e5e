#pragma once
// The ring buffer of a sampling event: the kernel writes records at
// data_head, we read them up to there and hand the space back by moving
// data_tail (perf_event_open(2), "MMAP layout").
#include <linux/perf_event.h>

#include <cstddef>
#include <cstdint>
#include <functional>
#include <span>
#include <vector>

#include "perf/fd.h"

namespace topdown::perf {

// What the kernel has written and we have not released yet: whole records,
// in one span, or two when they wrap around the end of the buffer.
struct Pending {
  std::span<const std::byte> first;
  std::span<const std::byte> second;
  uint64_t head = 0;  // data_head when it was read
  std::size_t size() const { return first.size() + second.size(); }
};

class RingBuffer {
 public:
  // Maps the metadata page and 2^n data pages (`data_pages`, rounded up to a
  // power of two) of a sampling event, writable so that the kernel sees
  // data_tail move and never overwrites what is unread. 0, or the errno mmap
  // gave (EPERM past perf_event_mlock_kb for an unprivileged user).
  int map(int fd, std::size_t data_pages);
  bool valid() const { return mapping_.valid(); }
  std::size_t data_size() const { return data_size_; }

  // The records written since the last release(). The acquire load of
  // data_head orders the reads of the records after it.
  Pending pending() const;
  // Gives the space of `pending` back to the kernel: a release store of
  // data_tail, so that our reads are done before the kernel may overwrite.
  void release(const Pending& pending);

  // Each record of `pending` with its bytes, header included; a record that
  // wraps around is copied whole into a scratch buffer first. Stops at a
  // record whose size is impossible (smaller than its header or past the
  // end), which only a corrupt buffer has.
  void for_each_record(const Pending& pending,
                       const std::function<void(const perf_event_header&, std::span<const std::byte>)>& visit);

 private:
  const perf_event_mmap_page* page() const { return static_cast<const perf_event_mmap_page*>(mapping_.address()); }

  Mapping mapping_;
  const std::byte* data_ = nullptr;
  std::size_t data_size_ = 0;  // a power of two
  std::vector<std::byte> scratch_;
};

// Rounds up to a power of two (at least 1): the data pages a ring may have.
std::size_t ring_data_pages(std::size_t wanted);

}  // namespace topdown::perf
