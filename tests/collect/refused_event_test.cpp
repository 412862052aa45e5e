// An event the kernel refuses at run time while the rest of its group opens
// (a partial PMU the trial opens did not catch) is left out and said once:
// the others are counted, and the run is not stopped.
#include <gtest/gtest.h>

#include "collect/collect.h"
#include "test_support.h"

namespace topdown::collect {
namespace {

TEST(RefusedEvent, IsLeftOutAndTheRestIsCounted) {
  if (!testing::perf_events_permitted()) GTEST_SKIP() << testing::kNotPermitted;
  // No software event has config 0x7777: the kernel refuses it.
  const CounterGroup group{{testing::software_event("task-clock", PERF_COUNT_SW_TASK_CLOCK),
                            testing::software_event("no-such-software-event", 0x7777),
                            testing::software_event("context-switches", PERF_COUNT_SW_CONTEXT_SWITCHES)}};
  ::testing::internal::CaptureStderr();
  const WorkloadResult result = run_workload({"sh", "-c", "true"}, {group});
  const std::string err = ::testing::internal::GetCapturedStderr();
  EXPECT_EQ(result.exit_code, 0);
  const counts::Count* clock = result.sample.find("task-clock");
  ASSERT_NE(clock, nullptr);
  EXPECT_GT(clock->value, 0);
  EXPECT_NE(result.sample.find("context-switches"), nullptr);
  EXPECT_EQ(result.sample.find("no-such-software-event"), nullptr);
  EXPECT_EQ(err.find("topdown: warning: 'no-such-software-event' did not open: "), 0u) << err;
  EXPECT_NE(err.find("; what needs it is n/a\n"), std::string::npos) << err;
}

}  // namespace
}  // namespace topdown::collect
