// The ring buffer read live: the kernel's software clock samples this
// thread, no PMU needed.
#include <gtest/gtest.h>
#include <unistd.h>

#include <sys/ioctl.h>

#include <chrono>
#include <cstring>

#include "../support/cpu_spin.h"
#include "perf/event.h"
#include "perf/ring_buffer.h"
#include "perf/sampling.h"

namespace topdown::perf {
namespace {

TEST(RingBuffer, ReadsWholeSamplesAcrossManyWrapsOfOnePage) {
  Event clock{"cpu-clock", PERF_TYPE_SOFTWARE, PERF_COUNT_SW_CPU_CLOCK};
  clock.exclude_kernel = true;
  perf_event_attr attr = make_attr(clock, {.read_format = kReadGroup, .disabled = true});
  set_sampling(attr, {.leader = true, .rate = {0, 200'000}});  // every 200 us of CPU time
  Opened opened = open_event(attr, {0, -1});
  if (opened.error == EACCES || opened.error == EPERM) GTEST_SKIP() << "perf_event_open not permitted";
  ASSERT_EQ(opened.error, 0);
  RingBuffer ring;
  ASSERT_EQ(ring.map(opened.fd.get(), 1), 0);
  ASSERT_EQ(ring.data_size(), static_cast<std::size_t>(::sysconf(_SC_PAGESIZE)));
  ASSERT_EQ(::ioctl(opened.fd.get(), PERF_EVENT_IOC_ENABLE, 0), 0);

  // One page holds 36 samples, 7 ms of CPU time. It is drained whenever it
  // is half full, and the test stops after a number of samples, not of
  // seconds: on a busy virtual machine the thread can be held for a
  // millisecond or two while its clock runs on, and the samples of that time
  // then come at once. The busy loop stays in user mode (the clock samples
  // only user code) and looks at the CPU clock, a system call, rarely.
  constexpr uint64_t kWanted = 1200;  // about 33 wraps of the page
  uint64_t samples = 0, lost = 0, wrapped = 0, previous_time = 0;
  bool in_order = true;
  const auto give_up = testing::thread_cpu_time() + std::chrono::seconds(5);
  for (uint64_t poll = 0; samples < kWanted && (poll % 256 != 0 || testing::thread_cpu_time() < give_up); ++poll) {
    volatile uint64_t sink = 0;
    for (int i = 0; i < 2000; ++i) sink = sink + 1;
    const Pending pending = ring.pending();
    if (pending.size() < ring.data_size() / 2) continue;
    if (!pending.second.empty()) ++wrapped;
    ring.for_each_record(pending, [&](const perf_event_header& header, std::span<const std::byte> record) {
      if (header.type == PERF_RECORD_LOST) ++lost;
      if (header.type != PERF_RECORD_SAMPLE) return;
      ++samples;
      ASSERT_EQ(record.size(), header.size);
      uint64_t words[5];  // identifier, ip, pid/tid, time, cpu
      std::memcpy(words, record.data() + sizeof header, sizeof words);
      EXPECT_EQ(static_cast<uint32_t>(words[2] >> 32), static_cast<uint32_t>(::gettid()));
      in_order = in_order && words[3] >= previous_time;
      previous_time = words[3];
      uint64_t group_events = 0;
      std::memcpy(&group_events, record.data() + sizeof header + sizeof words, sizeof group_events);
      EXPECT_EQ(group_events, 1u);
    });
    ring.release(pending);
  }
  EXPECT_GE(samples, kWanted);
  EXPECT_GT(wrapped, 10u);
  EXPECT_EQ(lost, 0u);
  EXPECT_TRUE(in_order);
  EXPECT_EQ(ring.pending().size() % 8, 0u);
}

TEST(RingBuffer, DataPagesArePowersOfTwo) {
  EXPECT_EQ(ring_data_pages(0), 1u);
  EXPECT_EQ(ring_data_pages(1), 1u);
  EXPECT_EQ(ring_data_pages(3), 4u);
  EXPECT_EQ(ring_data_pages(128), 128u);
}

TEST(Sampling, LeaderSamplesAndTracksTasksMembersOnlyAnswerReads) {
  perf_event_attr leader{};
  set_sampling(leader,
               {.leader = true, .rate = {1000, 0}, .tracks_tasks = true, .build_id = true, .wakeup_bytes = 4096});
  EXPECT_EQ(leader.sample_type, kSampleType);
  EXPECT_EQ(leader.freq, 1u);
  EXPECT_EQ(leader.sample_freq, 1000u);
  EXPECT_EQ(leader.mmap2 & leader.comm & leader.task & leader.build_id & leader.sample_id_all, 1u);
  EXPECT_EQ(leader.watermark, 1u);
  EXPECT_EQ(leader.wakeup_watermark, 4096u);
  perf_event_attr member{};
  set_sampling(member, {.rate = {1000, 0}});
  EXPECT_EQ(member.sample_period, 0u);
  EXPECT_EQ(member.freq, 0u);
  EXPECT_EQ(member.mmap2 | member.comm | member.task, 0u);
  EXPECT_EQ(member.sample_type, kSampleType);
  perf_event_attr by_period{};
  set_sampling(by_period, {.leader = true, .rate = {0, 100'000}});
  EXPECT_EQ(by_period.freq, 0u);
  EXPECT_EQ(by_period.sample_period, 100'000u);
}

}  // namespace
}  // namespace topdown::perf
