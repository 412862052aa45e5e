#include "region/mmap_read.h"

#include <gtest/gtest.h>
#include <linux/perf_event.h>

#include <vector>

namespace topdown::region {
namespace {

// A page as the kernel fills it for an event on general counter 2 (index 3)
// of a 48-bit PMU, with rdpmc allowed.
perf_event_mmap_page on_counter_page() {
  perf_event_mmap_page page{};
  page.lock = 8;
  page.index = 3;
  page.offset = 1000;
  page.pmc_width = 48;
  page.capabilities = kCapUserRdpmc;
  page.time_enabled = 500;
  page.time_running = 500;
  return page;
}

uint64_t no_tsc() {
  ADD_FAILURE() << "the TSC is read only with cap_user_time";
  return 0;
}

TEST(RegionMmapRead, SignExtendsTheCounterFromItsWidth) {
  EXPECT_EQ(sign_extend(0xFFFF'FFFF'FFF0ull, 48), -16);
  EXPECT_EQ(sign_extend(0x7FFF'FFFF'FFFFull, 48), 0x7FFF'FFFF'FFFFll);
  EXPECT_EQ(sign_extend(0xABCD'0000'0000'0010ull, 48), 16);  // bits above the width are not the counter's
  EXPECT_EQ(sign_extend(~uint64_t{0}, 64), -1);
  EXPECT_EQ(sign_extend(42, 0), 42);
}

TEST(RegionMmapRead, OnACounterAddsTheSignExtendedCounterToTheOffset) {
  perf_event_mmap_page page = on_counter_page();
  std::vector<uint32_t> asked;
  const PageRead read = read_page(
      page,
      [&](uint32_t counter) {
        asked.push_back(counter);
        return uint64_t{0xFFFF'FFFF'FFF0};  // -16 in 48 bits
      },
      no_tsc);
  EXPECT_TRUE(read.on_counter);
  EXPECT_EQ(asked, std::vector<uint32_t>{2});  // index - 1
  EXPECT_EQ(read.count, 984u);
  EXPECT_EQ(read.lock, 8u);
  EXPECT_EQ(read.time_enabled, 500u);
  EXPECT_EQ(read.time_running, 500u);
}

// Reads `page` where rdpmc must not be used: it falls back without calling it.
PageRead read_expecting_fallback(const perf_event_mmap_page& page) {
  int calls = 0;
  const PageRead read = read_page(
      page,
      [&](uint32_t) {
        ++calls;
        return uint64_t{7};
      },
      no_tsc);
  EXPECT_FALSE(read.on_counter);
  EXPECT_EQ(calls, 0);
  return read;
}

TEST(RegionMmapRead, IndexZeroMeansOffTheCounterAndFallsBack) {
  perf_event_mmap_page page = on_counter_page();
  page.index = 0;
  EXPECT_EQ(read_expecting_fallback(page).count, 1000u);  // the kernel's saved count
}

TEST(RegionMmapRead, WithoutUserRdpmcItFallsBack) {
  perf_event_mmap_page page = on_counter_page();
  page.capabilities = 0;
  read_expecting_fallback(page);
}

TEST(RegionMmapRead, RetriesWhenTheKernelUpdatesThePageMidRead) {
  perf_event_mmap_page page = on_counter_page();
  int calls = 0;
  const PageRead read = read_page(
      page,
      [&](uint32_t) {
        if (++calls == 1) {
          // The kernel rescheduled the event while we read: new offset, new counter.
          page.lock = 10;
          page.offset = 5000;
          page.index = 4;
          return uint64_t{111};
        }
        return uint64_t{20};
      },
      no_tsc);
  EXPECT_EQ(calls, 2);
  EXPECT_EQ(read.count, 5020u);
  EXPECT_EQ(read.lock, 10u);
}

TEST(RegionMmapRead, BringsTheTimesUpToNowWithTheTsc) {
  perf_event_mmap_page page = on_counter_page();
  page.capabilities = kCapUserRdpmc | kCapUserTime;
  page.time_enabled = 1000;
  page.time_running = 600;
  page.time_shift = 10;
  page.time_mult = 3 << 10;  // 3 ns per cycle
  page.time_offset = static_cast<uint64_t>(-2000);
  const uint64_t tsc = (uint64_t{1} << 20) + 5;  // above and below the shift
  const PageRead read = read_page(
      page, [](uint32_t) { return uint64_t{0}; }, [&] { return tsc; });
  const uint64_t elapsed = 3 * tsc - 2000;
  EXPECT_EQ(read.time_enabled, 1000 + elapsed);
  EXPECT_EQ(read.time_running, 600 + elapsed);
}

TEST(RegionMmapRead, AnEventOffTheCounterIsEnabledButNotRunning) {
  perf_event_mmap_page page = on_counter_page();
  page.capabilities = kCapUserTime;
  page.index = 0;
  page.time_shift = 0;
  page.time_mult = 1;
  page.time_offset = 0;
  const PageRead read = read_page(
      page, [](uint32_t) { return uint64_t{0}; }, [] { return uint64_t{300}; });
  EXPECT_EQ(read.time_enabled, 800u);
  EXPECT_EQ(read.time_running, 500u);
}

TEST(RegionMmapRead, ShortTimeCountersWrapAroundTheirMask) {
  perf_event_mmap_page page = on_counter_page();
  page.capabilities = kCapUserRdpmc | kCapUserTime | kCapUserTimeShort;
  page.time_shift = 0;
  page.time_mult = 1;
  page.time_offset = 0;
  page.time_cycles = 0xF0;
  page.time_mask = 0xFF;
  // The short counter reads 0x10 after passing 0xFF: 0x20 cycles after time_cycles.
  const PageRead read = read_page(
      page, [](uint32_t) { return uint64_t{0}; }, [] { return uint64_t{0x1010}; });
  EXPECT_EQ(read.time_enabled, 500u + 0xF0 + 0x20);
}

}  // namespace
}  // namespace topdown::region
