#include <gtest/gtest.h>

#include "collect/collect.h"

namespace topdown::collect {
namespace {

events::Encoding raw_event(uint64_t config) {
  events::Encoding encoding;
  encoding.name = "raw";
  encoding.type = PERF_TYPE_RAW;
  encoding.config = config;
  return encoding;
}

TEST(MakeAttr, CopiesTheEncoding) {
  events::Encoding encoding = raw_event(0x01b7);
  encoding.config1 = 0x3f80400091ull;
  encoding.config2 = 7;
  const perf_event_attr attr = make_attr(encoding, Options{}, true);
  EXPECT_EQ(attr.size, sizeof(perf_event_attr));
  EXPECT_EQ(attr.type, static_cast<uint32_t>(PERF_TYPE_RAW));
  EXPECT_EQ(attr.config, 0x01b7u);
  EXPECT_EQ(attr.config1, 0x3f80400091u);
  EXPECT_EQ(attr.config2, 7u);
  EXPECT_EQ(attr.read_format, static_cast<uint64_t>(PERF_FORMAT_TOTAL_TIME_ENABLED | PERF_FORMAT_TOTAL_TIME_RUNNING));
  EXPECT_EQ(attr.sample_period, 0u);
}

TEST(MakeAttr, OnlyTheLeaderWaitsForExec) {
  const perf_event_attr leader = make_attr(raw_event(0xc0), Options{}, true);
  EXPECT_EQ(leader.disabled, 1u);
  EXPECT_EQ(leader.enable_on_exec, 1u);
  const perf_event_attr member = make_attr(raw_event(0xc0), Options{}, false);
  EXPECT_EQ(member.disabled, 0u);
  EXPECT_EQ(member.enable_on_exec, 0u);
}

TEST(MakeAttr, AttachedAndSystemWideLeadersWaitForEnable) {
  const perf_event_attr leader = make_attr(raw_event(0xc0), Options{}, true, Start::OnEnable);
  EXPECT_EQ(leader.disabled, 1u);
  EXPECT_EQ(leader.enable_on_exec, 0u);
  const perf_event_attr member = make_attr(raw_event(0xc0), Options{}, false, Start::OnEnable);
  EXPECT_EQ(member.disabled, 0u);
  EXPECT_EQ(member.enable_on_exec, 0u);
}

TEST(MakeAttr, InheritFollowsCountChildren) {
  EXPECT_EQ(make_attr(raw_event(0x76), Options{}, true).inherit, 1u);
  Options own_process_only;
  own_process_only.count_children = false;
  EXPECT_EQ(make_attr(raw_event(0x76), own_process_only, true).inherit, 0u);
}

TEST(MakeAttr, ExcludesTheKernelUnlessAsked) {
  const perf_event_attr user_only = make_attr(raw_event(0x76), Options{}, true);
  EXPECT_EQ(user_only.exclude_kernel, 1u);
  EXPECT_EQ(user_only.exclude_hv, 1u);
  EXPECT_EQ(user_only.exclude_user, 0u);

  Options with_kernel;
  with_kernel.include_kernel = true;
  const perf_event_attr both = make_attr(raw_event(0x76), with_kernel, true);
  EXPECT_EQ(both.exclude_kernel, 0u);
  EXPECT_EQ(both.exclude_hv, 0u);
  EXPECT_EQ(both.exclude_user, 0u);
}

TEST(MakeAttr, KeepsTheEventsOwnPrivilegeFilter) {
  events::Encoding kernel_only = raw_event(0x76);
  kernel_only.exclude_user = true;
  const perf_event_attr sup = make_attr(kernel_only, Options{}, true);
  EXPECT_EQ(sup.exclude_user, 1u);
  EXPECT_EQ(sup.exclude_kernel, 0u);

  events::Encoding user_only = raw_event(0x76);
  user_only.exclude_kernel = true;
  Options with_kernel;
  with_kernel.include_kernel = true;
  const perf_event_attr usr = make_attr(user_only, with_kernel, true);
  EXPECT_EQ(usr.exclude_user, 0u);
  EXPECT_EQ(usr.exclude_kernel, 1u);
}

TEST(MakeAttr, CarriesThePreciseLevel) {
  events::Encoding encoding = raw_event(0xc0);
  EXPECT_EQ(make_attr(encoding, Options{}, true).precise_ip, 0u);
  encoding.precise = 2;
  EXPECT_EQ(make_attr(encoding, Options{}, true).precise_ip, 2u);
  encoding.precise = 3;
  EXPECT_EQ(make_attr(encoding, Options{}, false).precise_ip, 3u);
}

}  // namespace
}  // namespace topdown::collect
