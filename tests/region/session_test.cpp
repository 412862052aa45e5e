#include <gtest/gtest.h>

#include "fake_reader.h"

namespace topdown::region {
namespace {

using testing::fake_session;
using testing::FakeSession;
using testing::zen5_level1_session;

double fraction(const RegionResult& result, const std::string& node) {
  const NodeValue* value = result.find(node);
  if (value == nullptr || !value->fraction) {
    ADD_FAILURE() << node << " missing or n/a";
    return -100;
  }
  return *value->fraction;
}

TEST(RegionSession, ARegionGivesTheModelsNodesAsTheCliComputesThem) {
  FakeSession fake = zen5_level1_session();
  const RegionId work = fake.session.region("work");
  fake.session.begin(work);
  fake.session.end();
  const auto results = fake.session.results();
  ASSERT_EQ(results.size(), 1u);
  const RegionResult& result = results[0];
  EXPECT_EQ(result.name, "work");
  EXPECT_EQ(result.calls, 1u);
  EXPECT_DOUBLE_EQ(fraction(result, "Frontend_Bound"), 0.25);
  EXPECT_DOUBLE_EQ(fraction(result, "Bad_Speculation"), 0.075);
  EXPECT_DOUBLE_EQ(fraction(result, "Backend_Bound"), 0.375);
  EXPECT_DOUBLE_EQ(fraction(result, "Retiring"), 0.3);
  EXPECT_DOUBLE_EQ(fraction(result, "SMT_Contention"), 0.0);
  ASSERT_TRUE(result.slots.has_value());
  EXPECT_DOUBLE_EQ(*result.slots, 8000.0);
  EXPECT_DOUBLE_EQ(*result.find("Backend_Bound")->slots, 3000.0);
  EXPECT_EQ(result.find("Backend_Bound")->vendor_name, "backend_bound");
  EXPECT_TRUE(result.find("Backend_Bound")->bottleneck);
  EXPECT_DOUBLE_EQ(result.counted_share, 1.0);
  EXPECT_TRUE(result.warnings.empty()) << result.warnings.front();
  for (const NodeValue& node : result.nodes) EXPECT_EQ(node.level, 1) << node.name;
}

TEST(RegionSession, NamedRegionsAddUpTheirCalls) {
  FakeSession fake = zen5_level1_session();
  for (int i = 0; i < 5; ++i) {
    fake.session.begin("loop");
    fake.session.end();
  }
  const auto result = fake.session.result("loop");
  ASSERT_TRUE(result.has_value());
  EXPECT_EQ(result->calls, 5u);
  EXPECT_DOUBLE_EQ(*result->slots, 5 * 8000.0);
  EXPECT_DOUBLE_EQ(fraction(*result, "Retiring"), 0.3);
  EXPECT_FALSE(fake.session.result("other").has_value());
}

TEST(RegionSession, InnerRegionsAreAlsoCountedInTheEnclosingOnes) {
  FakeSession fake = zen5_level1_session();
  const RegionId outer = fake.session.region("outer");
  const RegionId inner = fake.session.region("inner");
  fake.session.begin(outer);  // reading 0
  {
    Scope scope(fake.session, inner);  // readings 1 and 2
  }
  fake.session.end();  // reading 3
  const auto results = fake.session.results();
  ASSERT_EQ(results.size(), 2u);
  EXPECT_EQ(results[0].name, "outer");
  EXPECT_EQ(results[0].parent, "");
  EXPECT_EQ(results[0].depth, 0);
  EXPECT_DOUBLE_EQ(*results[0].slots, 3 * 8000.0);
  EXPECT_EQ(results[1].name, "inner");
  EXPECT_EQ(results[1].parent, "outer");
  EXPECT_EQ(results[1].depth, 1);
  EXPECT_DOUBLE_EQ(*results[1].slots, 8000.0);
  EXPECT_EQ(fake.reader->reads, 4);
}

TEST(RegionSession, RegistersEachNameOnce) {
  FakeSession fake = zen5_level1_session();
  const RegionId first = fake.session.region("a");
  const RegionId second = fake.session.region("b");
  EXPECT_NE(first.index, second.index);
  EXPECT_EQ(fake.session.region("a").index, first.index);
}

ErrorCode code_of(const std::function<void()>& action) {
  try {
    action();
  } catch (const Error& error) {
    EXPECT_FALSE(std::string(error.what()).empty());
    return error.code();
  }
  return ErrorCode::Ok;
}

TEST(RegionSession, MisuseIsAnErrorThatChangesNothing) {
  FakeSession fake = zen5_level1_session();
  EXPECT_EQ(code_of([&] { fake.session.end(); }), ErrorCode::BadNesting);
  EXPECT_EQ(code_of([&] { fake.session.begin(RegionId{7}); }), ErrorCode::InvalidArgument);
  const RegionId deep = fake.session.region("deep");
  for (std::size_t i = 0; i < kMaxDepth; ++i) fake.session.begin(deep);
  EXPECT_EQ(code_of([&] { fake.session.begin(deep); }), ErrorCode::BadNesting);
  for (std::size_t i = 0; i < kMaxDepth; ++i) fake.session.end();
  EXPECT_EQ(fake.session.result("deep")->calls, kMaxDepth);
}

TEST(RegionSession, AScopeWhoseRegionWasEndedByHandLeavesAWarning) {
  FakeSession fake = zen5_level1_session();
  {
    Scope scope(fake.session, "early");
    fake.session.end();
  }
  const auto result = fake.session.result("early");
  EXPECT_EQ(result->calls, 1u);
  ASSERT_FALSE(result->warnings.empty());
  EXPECT_NE(result->warnings.back().find("could not end its region"), std::string::npos);
}

TEST(RegionSession, UnreadableCountersDropTheCallAndSaySo) {
  FakeSession fake = zen5_level1_session();
  fake.session.begin("work");
  fake.session.end();
  fake.reader->fail = true;
  fake.session.begin("work");
  fake.session.end();
  const auto result = fake.session.result("work");
  EXPECT_EQ(result->calls, 1u);
  EXPECT_EQ(result->dropped_calls, 1u);
  EXPECT_DOUBLE_EQ(*result->slots, 8000.0);
  ASSERT_FALSE(result->warnings.empty());
  EXPECT_NE(result->warnings.front().find("1 calls were left out"), std::string::npos);
}

TEST(RegionSession, MultiplexedCountsAreScaledAndMarked) {
  FakeSession fake = zen5_level1_session();
  fake.reader->running_step = 500;  // counted half the time
  fake.session.begin("work");
  fake.session.end();
  const auto result = fake.session.result("work");
  EXPECT_DOUBLE_EQ(result->counted_share, 0.5);
  EXPECT_DOUBLE_EQ(*result->slots, 16000.0);
  EXPECT_DOUBLE_EQ(fraction(*result, "Frontend_Bound"), 0.25);
}

TEST(RegionSession, ARegionWithoutCallsHasNoNodes) {
  FakeSession fake = zen5_level1_session();
  fake.session.region("never");
  const auto result = fake.session.result("never");
  EXPECT_EQ(result->calls, 0u);
  EXPECT_TRUE(result->nodes.empty());
  EXPECT_FALSE(result->slots.has_value());
}

TEST(RegionSession, PerfMetricsRegionsDecodeTheirFields) {
  cpu::CpuInfo intel;
  intel.id.vendor = cpu::Vendor::Intel;
  intel.id.brand = "Intel Xeon (test)";
  FakeSession fake = fake_session(plan_counting(intel, metrics::Support{"cpu", 4, true}, testing::source_models(2)));
  ASSERT_EQ(fake.events.size(), 9u);
  // One call: 1000 slots, retiring 0x80/0xff of them, in slots x 0xff.
  fake.reader->step[0] = 1000;
  fake.reader->step[1 + metrics::kRetiring] = 0x80 * 1000;
  fake.reader->step[1 + metrics::kHeavyOperations] = 0x20 * 1000;
  fake.reader->step[1 + metrics::kBackendBound] = 0x7f * 1000;
  fake.session.begin("work");
  fake.session.end();
  const auto result = fake.session.result("work");
  EXPECT_DOUBLE_EQ(fraction(*result, "Retiring"), 0x80 / 255.0);
  EXPECT_DOUBLE_EQ(fraction(*result, "Heavy_Operations"), 0x20 / 255.0);
  EXPECT_NEAR(fraction(*result, "Light_Operations"), 0x60 / 255.0, 1e-12);
  EXPECT_DOUBLE_EQ(fraction(*result, "Backend_Bound"), 0x7f / 255.0);
  EXPECT_DOUBLE_EQ(*result->slots, 1000.0);
  EXPECT_EQ(result->nodes.size(), 12u);
}

TEST(RegionText, ShowsTheTreeWithPercentages) {
  FakeSession fake = zen5_level1_session();
  fake.session.begin("work");
  fake.session.end();
  const std::string text = to_text(*fake.session.result("work"));
  EXPECT_NE(text.find("work: 1 calls, 8000 slots"), std::string::npos) << text;
  EXPECT_NE(text.find("Backend_Bound           37.5%  <== bottleneck"), std::string::npos) << text;
  EXPECT_NE(text.find("Frontend_Bound          25.0%"), std::string::npos) << text;
}

}  // namespace
}  // namespace topdown::region
