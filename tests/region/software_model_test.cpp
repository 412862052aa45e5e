// Sessions on the kernel's software events (tests/data/software.model): they
// open on every machine, without a PMU, so the whole path from
// perf_event_open to the report runs here.
#include <gtest/gtest.h>

#include <chrono>
#include <optional>

#include "../support/cpu_spin.h"
#include "region/open_session.h"
#include "topdown/region.h"
#include "topdown/region.hpp"

namespace topdown::region {
namespace {

constexpr const char* kSoftwareModel = TOPDOWN_SOURCE_DIR "/tests/data/software.model";

Options software_model() {
  Options options;
  options.model_file = kSoftwareModel;
  return options;
}

// The session, or a skip where perf_event_open is not permitted at all.
#define OPEN_OR_SKIP(session, options)                                                     \
  std::optional<Error> error;                                                              \
  std::optional<Session> session = Session::try_open(options, &error);                     \
  if (!session && error->code() == ErrorCode::NotPermitted) GTEST_SKIP() << error->what(); \
  ASSERT_TRUE(session.has_value()) << error->what()

TEST(RegionSoftwareModel, ASessionOpensOnAnyMachineAndMeasuresRegions) {
  OPEN_OR_SKIP(session, software_model());
  const SessionInfo& info = session->info();
  EXPECT_EQ(info.method, "model software");
  ASSERT_FALSE(info.events.empty());
  EXPECT_EQ(info.events[0], "task-clock");
  EXPECT_EQ(info.reader, Reader::Read);  // software events are on no counter rdpmc could read
  EXPECT_FALSE(info.rdpmc_ns.has_value());
  ASSERT_TRUE(info.read_ns.has_value());
  EXPECT_GT(*info.read_ns, 0.0);

  for (int call = 0; call < 3; ++call) {
    Scope scope(*session, "spin");
    testing::spin_for_cpu(std::chrono::milliseconds(1));
  }
  const std::optional<RegionResult> spin = session->result("spin");
  ASSERT_TRUE(spin.has_value());
  EXPECT_EQ(spin->calls, 3u);
  EXPECT_EQ(spin->dropped_calls, 0u);
  EXPECT_DOUBLE_EQ(spin->counted_share, 1.0);  // software events are never multiplexed
  // The tree of the model; its values need the wall time (duration_time),
  // which a region does not measure, so they are n/a rather than a number.
  ASSERT_EQ(spin->nodes.size(), 2u);
  EXPECT_EQ(spin->nodes[0].name, "On_CPU");
  EXPECT_EQ(spin->nodes[1].name, "Off_CPU");
  EXPECT_FALSE(spin->nodes[0].fraction.has_value());
}

TEST(RegionSoftwareModel, TheReadReaderGivesTheGroupsCounts) {
  OpenCounters counters;
  try {
    counters = open_counters(software_model());
  } catch (const Error& error) {
    if (error.code() == ErrorCode::NotPermitted) GTEST_SKIP() << error.what();
    FAIL() << error.what();
  }
  EXPECT_EQ(counters.rdpmc_reader, nullptr);
  Snapshot begin;
  Snapshot end;
  counters.read_reader->read(begin);
  testing::spin_for_cpu(std::chrono::milliseconds(5));
  counters.read_reader->read(end);
  ASSERT_TRUE(begin.valid && end.valid);
  // task-clock leads: the nanoseconds this thread ran, most of the 5 ms, and
  // never more than the group was enabled.
  const uint64_t task_clock = end.values[0] - begin.values[0];
  EXPECT_GT(task_clock, 1'000'000u);
  EXPECT_LE(task_clock, end.time_enabled - begin.time_enabled + 100'000);
  EXPECT_EQ(end.time_enabled - begin.time_enabled, end.time_running - begin.time_running);
}

TEST(RegionSoftwareModel, TheCApiOpensItToo) {
  td_region_options options;
  td_region_options_init(&options);
  options.model_file = kSoftwareModel;
  td_region_session* session = nullptr;
  const int code = td_region_open(&options, &session);
  if (code == TD_REGION_ERR_NOT_PERMITTED) GTEST_SKIP() << td_region_last_error();
  ASSERT_EQ(code, TD_REGION_OK) << td_region_last_error();
  td_region_id id = 0;
  ASSERT_EQ(td_region_register(session, "spin", &id), TD_REGION_OK);
  ASSERT_EQ(td_region_begin(session, id), TD_REGION_OK);
  testing::spin_for_cpu(std::chrono::milliseconds(1));
  ASSERT_EQ(td_region_end(session), TD_REGION_OK);
  td_region_report* report = nullptr;
  ASSERT_EQ(td_region_get_report(session, &report), TD_REGION_OK);
  EXPECT_STREQ(report->method, "model software");
  EXPECT_STREQ(report->reader, "read");
  ASSERT_EQ(report->region_count, 1u);
  EXPECT_STREQ(report->regions[0].name, "spin");
  EXPECT_EQ(report->regions[0].calls, 1u);
  ASSERT_EQ(report->regions[0].node_count, 2u);
  EXPECT_STREQ(report->regions[0].nodes[0].name, "On_CPU");
  td_region_report_free(report);
  td_region_close(session);
}

}  // namespace
}  // namespace topdown::region
