#include <gtest/gtest.h>

#include "perf/event.h"

namespace topdown::perf {
namespace {

TEST(PerfAttr, CopiesWhatTheEventCounts) {
  Event event;
  event.name = "OFFCORE_RESPONSE";
  event.type = PERF_TYPE_RAW;
  event.config = 0x01b7;
  event.config1 = 0x3f80400091ull;
  event.config2 = 7;
  event.exclude_kernel = true;
  event.exclude_hv = true;
  const perf_event_attr attr = make_attr(event);
  EXPECT_EQ(attr.size, sizeof(perf_event_attr));
  EXPECT_EQ(attr.type, static_cast<uint32_t>(PERF_TYPE_RAW));
  EXPECT_EQ(attr.config, 0x01b7u);
  EXPECT_EQ(attr.config1, 0x3f80400091u);
  EXPECT_EQ(attr.config2, 7u);
  EXPECT_EQ(attr.exclude_user, 0u);
  EXPECT_EQ(attr.exclude_kernel, 1u);
  EXPECT_EQ(attr.exclude_hv, 1u);
  EXPECT_EQ(attr.sample_period, 0u);
}

TEST(PerfAttr, DefaultsToOneEventReadWithItsTimesRunningAtOnce) {
  const perf_event_attr attr = make_attr(Event{});
  EXPECT_EQ(attr.read_format, static_cast<uint64_t>(PERF_FORMAT_TOTAL_TIME_ENABLED | PERF_FORMAT_TOTAL_TIME_RUNNING));
  EXPECT_EQ(attr.disabled, 0u);
  EXPECT_EQ(attr.enable_on_exec, 0u);
  EXPECT_EQ(attr.inherit, 0u);
}

TEST(PerfAttr, TakesTheReadFormatAndStartTheCallerAsksFor) {
  const perf_event_attr attr =
      make_attr(Event{}, {.read_format = kReadGroup, .disabled = true, .enable_on_exec = true, .inherit = true});
  EXPECT_EQ(attr.read_format, static_cast<uint64_t>(PERF_FORMAT_GROUP | PERF_FORMAT_TOTAL_TIME_ENABLED |
                                                    PERF_FORMAT_TOTAL_TIME_RUNNING | PERF_FORMAT_ID));
  EXPECT_EQ(attr.disabled, 1u);
  EXPECT_EQ(attr.enable_on_exec, 1u);
  EXPECT_EQ(attr.inherit, 1u);
}

TEST(PerfAttr, PreciseLevelKeepsItsTwoBits) {
  Event event;
  event.precise = 2;
  EXPECT_EQ(make_attr(event).precise_ip, 2u);
  event.precise = 7;
  EXPECT_EQ(make_attr(event).precise_ip, 3u);
}

}  // namespace
}  // namespace topdown::perf
