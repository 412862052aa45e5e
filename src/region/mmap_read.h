#pragma once
// Reading a counter from user space through its perf mmap page: the kernel's
// seqlock protocol, written as a pure function of the page so that tests can
// drive it with synthetic pages (see the comment on perf_event_mmap_page in
// linux/perf_event.h).
#include <atomic>
#include <cstdint>

namespace topdown::region {

// Bits of perf_event_mmap_page::capabilities.
constexpr uint64_t kCapUserRdpmc = 1ull << 2;
constexpr uint64_t kCapUserTime = 1ull << 3;
constexpr uint64_t kCapUserTimeShort = 1ull << 5;

struct PageRead {
  uint64_t count = 0;  // offset + the counter sign-extended from pmc_width bits
  uint64_t time_enabled = 0;
  uint64_t time_running = 0;
  uint32_t lock = 0;  // the sequence number the values belong to
  // The event was on a counter and rdpmc was allowed, so `count` is current.
  // Otherwise count is the kernel's last saved value (exact while the event
  // is off the PMU) and the caller falls back to read().
  bool on_counter = false;
};

// The low `width` bits of a raw counter as a signed number: the kernel's
// offset is relative to the value the counter was started at.
inline int64_t sign_extend(uint64_t raw, unsigned width) {
  if (width == 0 || width >= 64) return static_cast<int64_t>(raw);
  const unsigned unused = 64 - width;
  return static_cast<int64_t>(raw << unused) >> unused;
}

// Nanoseconds since the kernel last updated the page's times, from a TSC
// reading: time_offset + tsc * time_mult >> time_shift, split so the product
// cannot overflow.
template <typename Page>
uint64_t elapsed_since_update(const volatile Page& page, uint64_t capabilities, uint64_t tsc) {
  if (capabilities & kCapUserTimeShort) {
    const uint64_t base = page.time_cycles;
    tsc = base + ((tsc - base) & page.time_mask);
  }
  const unsigned shift = page.time_shift;
  const uint64_t mult = page.time_mult;
  const uint64_t quotient = tsc >> shift;
  const uint64_t remainder = tsc & ((uint64_t{1} << shift) - 1);
  return page.time_offset + quotient * mult + ((remainder * mult) >> shift);
}

// One consistent reading of the page. `rdpmc(counter)` executes RDPMC (called
// only while the event is on a counter) and `tsc()` reads the time stamp
// counter; both are parameters so that tests can pass their own.
template <typename Page, typename Rdpmc, typename Tsc>
PageRead read_page(const volatile Page& page, Rdpmc&& rdpmc, Tsc&& tsc) {
  PageRead result;
  uint32_t sequence;
  do {
    sequence = page.lock;
    std::atomic_signal_fence(std::memory_order_seq_cst);
    const uint64_t capabilities = page.capabilities;
    const uint32_t index = page.index;
    int64_t count = page.offset;
    result.time_enabled = page.time_enabled;
    result.time_running = page.time_running;
    result.on_counter = index != 0 && (capabilities & kCapUserRdpmc) != 0;
    if (result.on_counter) count += sign_extend(rdpmc(index - 1), page.pmc_width);
    if (capabilities & kCapUserTime) {
      // The page's times are as of its last update; bring them to now.
      const uint64_t elapsed = elapsed_since_update(page, capabilities, tsc());
      result.time_enabled += elapsed;
      if (index != 0) result.time_running += elapsed;
    }
    result.count = static_cast<uint64_t>(count);
    std::atomic_signal_fence(std::memory_order_seq_cst);
  } while (page.lock != sequence);
  result.lock = sequence;
  return result;
}

}  // namespace topdown::region
