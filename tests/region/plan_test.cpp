#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>
#include <regex>

#include "fake_reader.h"

namespace topdown::region {
namespace {

using testing::source_models;
using testing::zen5_cpu;

ErrorCode plan_error(const cpu::CpuInfo& cpu, const std::optional<metrics::Support>& support, const Options& options,
                     std::string* message = nullptr) {
  try {
    plan_counting(cpu, support, options);
  } catch (const Error& error) {
    if (message) *message = error.what();
    return error.code();
  }
  return ErrorCode::Ok;
}

TEST(RegionPlan, ZenLevelOneIsOneGroupOfFiveEventsOnThisThread) {
  const Counting counting = plan_counting(zen5_cpu(), std::nullopt, source_models(1));
  EXPECT_FALSE(counting.perf_metrics);
  EXPECT_EQ(counting.method_name, "model zen5");
  ASSERT_EQ(counting.attrs.size(), 5u);
  ASSERT_EQ(counting.events.size(), 5u);
  EXPECT_EQ(counting.events[0].name, "de_no_dispatch_per_slot.no_ops_from_frontend");
  for (std::size_t i = 0; i < counting.attrs.size(); ++i) {
    const perf_event_attr& attr = counting.attrs[i];
    EXPECT_EQ(attr.disabled, i == 0 ? 1u : 0u) << i;
    EXPECT_EQ(attr.enable_on_exec, 0u) << i;
    EXPECT_EQ(attr.inherit, 0u) << i;  // the calling thread only
    EXPECT_EQ(attr.exclude_kernel, 1u) << i;
    EXPECT_NE(attr.read_format & PERF_FORMAT_GROUP, 0u) << i;
    EXPECT_EQ(attr.config, counting.events[i].config) << i;
  }
}

TEST(RegionPlan, ZenLevelTwoDoesNotFitOneGroupAndSaysWhichLevel) {
  std::string message;
  EXPECT_EQ(plan_error(zen5_cpu(), std::nullopt, source_models(2), &message), ErrorCode::DoesNotFit);
  // The event count is the model's business; the sentence around it is ours.
  EXPECT_TRUE(std::regex_match(message, std::regex("level 2 of the zen5 model needs [0-9]+ events in [2-9] groups of "
                                                   "the 5 general counters that count on this CPU, but a region "
                                                   "reads one group and never multiplexes; use level 1")))
      << message;
}

TEST(RegionPlan, ZenFourLevelOneFitsToo) {
  cpu::CpuInfo zen4 = zen5_cpu();
  zen4.id.family = 0x19;
  zen4.id.model = 0x11;
  const Counting counting = plan_counting(zen4, std::nullopt, source_models(1));
  EXPECT_EQ(counting.method_name, "model zen4");
  EXPECT_EQ(counting.attrs.size(), 5u);
}

// On arm64 (tests/data/sysfs-neoverse-v2, health check not run: six event
// counters) level 1's seven events are one group: CPU_CYCLES on the cycle
// counter, every event on the fixture's core PMU (type 10).
TEST(RegionPlan, NeoverseV2LevelOneIsOneGroupWithTheCycleCounter) {
  const std::filesystem::path root = TOPDOWN_SOURCE_DIR "/tests/data/sysfs-neoverse-v2";
  const cpu::CpuInfo v2 = cpu::detect(root / "sys", root / "proc", cpu::CounterCheck::Skip);
  const Counting counting = plan_counting(v2, std::nullopt, source_models(1));
  EXPECT_EQ(counting.method_name, "model neoverse-v2");
  ASSERT_EQ(counting.attrs.size(), 7u);
  int cycles = 0;
  for (std::size_t i = 0; i < counting.attrs.size(); ++i) {
    EXPECT_EQ(counting.attrs[i].type, 10u) << i;
    EXPECT_NE(counting.attrs[i].read_format & PERF_FORMAT_GROUP, 0u) << i;
    cycles += counting.attrs[i].config == 0x11 ? 1 : 0;  // Arm's CPU_CYCLES
  }
  EXPECT_EQ(cycles, 1);
}

TEST(RegionPlan, IntelWithPerfMetricsUsesThemWithoutAModel) {
  cpu::CpuInfo intel;
  intel.id.vendor = cpu::Vendor::Intel;
  intel.id.family = 6;
  intel.id.model = 0x8F;
  intel.id.brand = "Intel Xeon (test)";
  Options options = source_models(1);
  options.models_dir = "/nonexistent";  // no model is needed
  const Counting counting = plan_counting(intel, metrics::Support{"cpu", 4, false}, options);
  EXPECT_TRUE(counting.perf_metrics);
  EXPECT_EQ(counting.method_name, "perf-metrics");
  ASSERT_EQ(counting.events.size(), 5u);
  EXPECT_EQ(counting.events[0].name, "slots");
  EXPECT_EQ(counting.attrs[0].config, metrics::kSlotsConfig);
  EXPECT_EQ(counting.attrs[4].config, 0x8300u);

  std::string message;
  EXPECT_EQ(plan_error(intel, metrics::Support{"cpu", 4, false}, source_models(2), &message),
            ErrorCode::UnsupportedCpu);
  EXPECT_NE(message.find("level 2 needs the level-2 fields of PERF_METRICS"), std::string::npos) << message;
}

TEST(RegionPlan, AModelFileIsCountedEvenWherePerfMetricsExist) {
  cpu::CpuInfo intel;
  intel.id.vendor = cpu::Vendor::Intel;
  intel.id.family = 6;
  intel.id.model = 0x8F;
  intel.reported_counters = 8;
  Options options;
  options.model_file = TOPDOWN_SOURCE_DIR "/tests/data/software.model";
  const Counting counting = plan_counting(intel, metrics::Support{"cpu", 4, false}, options);
  EXPECT_FALSE(counting.perf_metrics);
  EXPECT_EQ(counting.method_name, "model software");
  ASSERT_FALSE(counting.events.empty());
  EXPECT_EQ(counting.events[0].name, "task-clock");
  EXPECT_EQ(counting.events[0].type, static_cast<uint32_t>(PERF_TYPE_SOFTWARE));
  ASSERT_EQ(counting.attrs.size(), counting.events.size());
  for (std::size_t i = 0; i < counting.attrs.size(); ++i) {
    EXPECT_EQ(counting.attrs[i].read_format, perf::kReadGroup) << i;
    EXPECT_EQ(counting.attrs[i].disabled, i == 0 ? 1u : 0u) << i;
    EXPECT_EQ(counting.attrs[i].config, counting.events[i].config) << i;
  }

  std::string message;
  options.model_file = "/nonexistent/my.model";
  EXPECT_EQ(plan_error(intel, std::nullopt, options, &message), ErrorCode::Model);
  EXPECT_NE(message.find("/nonexistent/my.model"), std::string::npos) << message;
}

TEST(RegionPlan, IntelWithoutPerfMetricsFallsBackToItsModel) {
  cpu::CpuInfo haswell;
  haswell.id.vendor = cpu::Vendor::Intel;
  haswell.id.family = 6;
  haswell.id.model = 0x3C;
  haswell.reported_counters = 8;  // SMT off: a Haswell core lends its sibling's counters
  haswell.working_counters = 8;
  const Counting counting = plan_counting(haswell, std::nullopt, source_models(1));
  EXPECT_EQ(counting.method_name, "model hsw");
  EXPECT_FALSE(counting.perf_metrics);
  EXPECT_LE(counting.attrs.size(), kMaxValues);
}

TEST(RegionPlan, RefusesWhatItCannotMeasure) {
  cpu::CpuInfo zen3 = zen5_cpu();  // this machine: family 0x19 model 1, no model
  zen3.id.family = 0x19;
  zen3.id.model = 0x01;
  std::string message;
  EXPECT_EQ(plan_error(zen3, std::nullopt, source_models(1), &message), ErrorCode::UnsupportedCpu);
  EXPECT_NE(message.find("no model for this CPU"), std::string::npos) << message;

  EXPECT_EQ(plan_error(zen5_cpu(), std::nullopt, source_models(3), &message), ErrorCode::InvalidArgument);
  EXPECT_EQ(message, "level 3 is not offered for regions; use level 1 or 2");
  EXPECT_EQ(plan_error(zen5_cpu(), std::nullopt, source_models(0)), ErrorCode::InvalidArgument);

  Options missing = source_models(1);
  missing.models_dir = "/nonexistent/models";
  EXPECT_EQ(plan_error(zen5_cpu(), std::nullopt, missing, &message), ErrorCode::Model);
  EXPECT_NE(message.find("/nonexistent/models does not exist"), std::string::npos) << message;

  cpu::CpuInfo one_counter = zen5_cpu();
  one_counter.working_counters = 1;
  EXPECT_EQ(plan_error(one_counter, std::nullopt, source_models(1), &message), ErrorCode::DoesNotFit);
  EXPECT_NE(message.find("regions need a CPU with more working counters"), std::string::npos) << message;
}

TEST(RegionReaderChoice, AutoTakesTheCheaperUsableReader) {
  EXPECT_EQ(choose_reader(ReaderChoice::Auto, 30.0, 900.0), Reader::Rdpmc);   // bare metal
  EXPECT_EQ(choose_reader(ReaderChoice::Auto, 2500.0, 900.0), Reader::Read);  // a VM trapping rdpmc
  EXPECT_EQ(choose_reader(ReaderChoice::Auto, std::nullopt, 900.0), Reader::Read);
  EXPECT_EQ(choose_reader(ReaderChoice::Auto, 30.0, std::nullopt), Reader::Rdpmc);
  EXPECT_THROW(choose_reader(ReaderChoice::Auto, std::nullopt, std::nullopt), Error);
}

TEST(RegionReaderChoice, AForcedReaderIsUsedOrRefused) {
  EXPECT_EQ(choose_reader(ReaderChoice::Rdpmc, 2500.0, 900.0), Reader::Rdpmc);
  EXPECT_EQ(choose_reader(ReaderChoice::Read, 30.0, 900.0), Reader::Read);
  try {
    choose_reader(ReaderChoice::Rdpmc, std::nullopt, 900.0);
    FAIL() << "rdpmc is not usable";
  } catch (const Error& error) {
    EXPECT_EQ(error.code(), ErrorCode::ReaderUnavailable);
    EXPECT_NE(std::string(error.what()).find("rdpmc was forced"), std::string::npos);
  }
  EXPECT_THROW(choose_reader(ReaderChoice::Read, 30.0, std::nullopt), Error);
}

TEST(RegionModels, TopdownModelsWinsOverTheInstalledModels) {
  // ctest sets TOPDOWN_MODELS to the source tree's models.
  const char* configured = std::getenv("TOPDOWN_MODELS");
  if (configured == nullptr) GTEST_SKIP() << "TOPDOWN_MODELS is not set (run through ctest)";
  EXPECT_EQ(model_dir(), std::filesystem::path(configured));
}

}  // namespace
}  // namespace topdown::region
