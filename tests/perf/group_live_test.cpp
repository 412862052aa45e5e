// Groups of the kernel's software events: they count on every machine,
// without a PMU, wherever perf_event_open is permitted at all.
#include <fcntl.h>
#include <gtest/gtest.h>

#include <chrono>
#include <vector>

#include "../support/cpu_spin.h"
#include "perf/event.h"
#include "perf/group.h"

namespace topdown::perf {
namespace {

Event software(const char* name, uint64_t config) {
  Event event;
  event.name = name;
  event.type = PERF_TYPE_SOFTWARE;
  event.config = config;
  return event;
}

// task-clock leading cpu-clock, on this thread, read as one group.
class PerfGroupLive : public ::testing::Test {
 protected:
  void SetUp() override {
    const int err = group_.add(
        make_attr(software("task-clock", PERF_COUNT_SW_TASK_CLOCK), {.read_format = kReadGroup, .disabled = true}));
    if (err == EACCES || err == EPERM) GTEST_SKIP() << "perf_event_open is not permitted here";
    ASSERT_EQ(err, 0) << read_failure(err);
    ASSERT_EQ(group_.add(make_attr(software("cpu-clock", PERF_COUNT_SW_CPU_CLOCK), {.read_format = kReadGroup})), 0);
  }
  Group group_;
};

TEST_F(PerfGroupLive, CountsOnlyWhileEnabledAndReadsEveryMemberWithTheLeadersTimes) {
  std::vector<uint64_t> values(group_.size());
  Times times;
  testing::spin_for_cpu(std::chrono::milliseconds(2));
  ASSERT_EQ(group_.read(values, times), 0);
  EXPECT_EQ(values, (std::vector<uint64_t>{0, 0}));  // created disabled
  EXPECT_EQ(times.enabled, 0u);

  ASSERT_EQ(group_.enable(), 0);
  testing::spin_for_cpu(std::chrono::milliseconds(5));
  ASSERT_EQ(group_.disable(), 0);
  ASSERT_EQ(group_.read(values, times), 0);
  // Both clocks count the nanoseconds this thread ran: at least most of the 5 ms.
  EXPECT_GT(values[0], 1'000'000u);
  EXPECT_GT(values[1], 1'000'000u);
  EXPECT_GE(times.enabled, times.running);
  EXPECT_GT(times.running, 1'000'000u);

  ASSERT_EQ(group_.reset(), 0);
  ASSERT_EQ(group_.read(values, times), 0);
  EXPECT_EQ(values, (std::vector<uint64_t>{0, 0}));
}

TEST_F(PerfGroupLive, DescriptorsCloseOnExec) {
  for (std::size_t i = 0; i < group_.size(); ++i) {
    EXPECT_NE(::fcntl(group_.fd(i), F_GETFD) & FD_CLOEXEC, 0) << i;
  }
}

TEST_F(PerfGroupLive, PagesMapButSoftwareEventsOfferNoRdpmc) {
  ASSERT_TRUE(group_.map_pages());
  ASSERT_TRUE(group_.map_pages());  // idempotent
  for (std::size_t i = 0; i < group_.size(); ++i) {
    ASSERT_NE(group_.page(i), nullptr);
    EXPECT_EQ(group_.page(i)->index, 0u) << i;  // not on a hardware counter
  }
}

TEST(PerfEventLive, OneEventReadsItsValueAndTimes) {
  Opened opened = open_event(make_attr(software("task-clock", PERF_COUNT_SW_TASK_CLOCK)), Target{});
  if (opened.error == EACCES || opened.error == EPERM) GTEST_SKIP() << "perf_event_open is not permitted here";
  ASSERT_EQ(opened.error, 0) << read_failure(opened.error);
  testing::spin_for_cpu(std::chrono::milliseconds(2));
  Reading reading;
  ASSERT_EQ(read_event(opened.fd.get(), reading), 0);
  EXPECT_GT(reading.value, 100'000u);
  EXPECT_GT(reading.times.enabled, 0u);
  EXPECT_GT(reading.times.running, 0u);
}

TEST(PerfEventLive, OpenFailuresGiveTheErrno) {
  Event unknown = software("no-such-software-event", 0xffff);
  const Opened opened = open_event(make_attr(unknown), Target{});
  EXPECT_FALSE(opened.fd.valid());
  EXPECT_NE(opened.error, 0);
  Group group;
  EXPECT_EQ(group.add(make_attr(unknown)), opened.error);
  EXPECT_TRUE(group.empty());
}

TEST(PerfEventLive, ReadingADescriptorOfAnotherKindIsAShortRead) {
  int pipe_ends[2];
  ASSERT_EQ(::pipe(pipe_ends), 0);
  const Fd read_end(pipe_ends[0]);
  const Fd write_end(pipe_ends[1]);
  ASSERT_EQ(::write(write_end.get(), "x", 1), 1);
  Reading reading;
  EXPECT_EQ(read_event(read_end.get(), reading), kShortRead);
  EXPECT_EQ(read_failure(kShortRead), "short read");
  EXPECT_EQ(read_event(-1, reading), EBADF);
}

}  // namespace
}  // namespace topdown::perf
