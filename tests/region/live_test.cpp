// Sessions on this machine's real PMU, or, where there is none (a VM without
// a virtual PMU), the error every caller gets instead.
#include <gtest/gtest.h>

#include <cstdio>
#include <map>
#include <sstream>

#include "demos/kernels.h"
#include "perf/open_failure.h"
#include "topdown/region.h"
#include "topdown/region.hpp"

namespace topdown::region {
namespace {

constexpr const char* kNoPmu = "no hardware PMU on this machine (a VM without vPMU?)";

TEST(RegionLive, OpeningWithoutAPmuIsAnErrorWithAMessage) {
  if (perf::pmu_available()) GTEST_SKIP() << "this machine has a PMU: opening succeeds";
  std::optional<Error> error;
  EXPECT_FALSE(Session::try_open({}, &error).has_value());
  ASSERT_TRUE(error.has_value());
  EXPECT_EQ(error->code(), ErrorCode::NoPmu);
  EXPECT_EQ(std::string(error->what()),
            "cannot count 'cycles' (type 0, config 0x0, config1 0x0): no hardware PMU: this kernel exposes no CPU "
            "performance counters (a VM without a virtual PMU?); enable the vPMU in the hypervisor or run on bare "
            "metal");
  try {
    Session session(Options{});
    FAIL() << "a session opened without a PMU";
  } catch (const Error& thrown) {
    EXPECT_EQ(thrown.code(), ErrorCode::NoPmu);
  }
}

TEST(RegionLive, TheCApiReportsTheMissingPmuAndLeavesNoSession) {
  if (perf::pmu_available()) GTEST_SKIP() << "this machine has a PMU: opening succeeds";
  td_region_options options;
  td_region_options_init(&options);
  td_region_session* session = reinterpret_cast<td_region_session*>(0x1);
  EXPECT_EQ(td_region_open(&options, &session), TD_REGION_ERR_NO_PMU);
  EXPECT_EQ(session, nullptr);
  EXPECT_NE(std::string(td_region_last_error()).find("no hardware PMU"), std::string::npos);
}

// Level 1 of `topdown stat --csv` for one demo kernel, by node name.
std::map<std::string, double> topdown_stat_level1(const std::string& kernel, uint64_t iterations) {
  const std::string command = std::string(TOPDOWN_BIN) + " stat --csv -- " + TOPDOWN_DEMO_BIN + " " + kernel +
                              " --iterations " + std::to_string(iterations) + " 2>&1 >/dev/null";
  std::map<std::string, double> level1;
  FILE* pipe = ::popen(command.c_str(), "r");
  if (pipe == nullptr) return level1;
  char line[4096];
  while (std::fgets(line, sizeof line, pipe)) {
    // kind,name,level,parent,vendor_name,value,...
    std::stringstream row(line);
    std::string kind, name, level, parent, vendor, value;
    std::getline(row, kind, ',');
    std::getline(row, name, ',');
    std::getline(row, level, ',');
    std::getline(row, parent, ',');
    std::getline(row, vendor, ',');
    std::getline(row, value, ',');
    if (kind == "node" && level == "1" && !value.empty()) level1[name] = std::stod(value);
  }
  ::pclose(pipe);
  return level1;
}

TEST(RegionLive, ARegionAroundAKernelMatchesTopdownStatWithinThreePoints) {
  if (!perf::pmu_available()) GTEST_SKIP() << kNoPmu;
  struct Case {
    std::string kernel;
    uint64_t (*run)(uint64_t);
    uint64_t iterations;  // the demo's defaults: half a second to a second each
  };
  for (const auto& [kernel, run, iterations] :
       {Case{"alu", demo::alu_chains, 300'000'000}, Case{"branchy", demo::branch_on_random_bytes, 150'000'000},
        Case{"pointer-chase", demo::chase_pointers, 3'000'000}}) {
    std::optional<Error> error;
    auto session = Session::try_open({}, &error);
    ASSERT_TRUE(session.has_value()) << error->what();
    volatile uint64_t checksum = 0;
    {
      Scope scope(*session, kernel);
      checksum = run(iterations);
    }
    (void)checksum;
    const auto region = session->result(kernel);
    const auto stat = topdown_stat_level1(kernel, iterations);
    ASSERT_FALSE(stat.empty()) << "topdown stat gave no level-1 nodes for " << kernel;
    for (const auto& [node, value] : stat) {
      const NodeValue* measured = region->find(node);
      ASSERT_NE(measured, nullptr) << node;
      ASSERT_TRUE(measured->fraction.has_value()) << node;
      EXPECT_NEAR(*measured->fraction, value, 0.03) << kernel << " " << node;
    }
  }
}

TEST(RegionLive, BothReadersGiveTheSameBreakdown) {
  if (!perf::pmu_available()) GTEST_SKIP() << kNoPmu;
  std::map<Reader, std::optional<RegionResult>> results;
  for (const ReaderChoice choice : {ReaderChoice::Rdpmc, ReaderChoice::Read}) {
    Options options;
    options.reader = choice;
    std::optional<Error> error;
    auto session = Session::try_open(options, &error);
    if (!session && error->code() == ErrorCode::ReaderUnavailable) GTEST_SKIP() << error->what();
    ASSERT_TRUE(session.has_value()) << error->what();
    {
      Scope scope(*session, "alu");
      volatile uint64_t checksum = demo::alu_chains(10'000'000);
      (void)checksum;
    }
    results[session->info().reader] = session->result("alu");
  }
  ASSERT_EQ(results.size(), 2u);
  const RegionResult& rdpmc = *results[Reader::Rdpmc];
  const RegionResult& read = *results[Reader::Read];
  for (const NodeValue& node : rdpmc.nodes) {
    ASSERT_TRUE(node.fraction && read.find(node.name)->fraction) << node.name;
    EXPECT_NEAR(*node.fraction, *read.find(node.name)->fraction, 0.03) << node.name;
  }
}

TEST(RegionLive, SessionInfoSaysHowItCounts) {
  if (!perf::pmu_available()) GTEST_SKIP() << kNoPmu;
  std::optional<Error> error;
  auto session = Session::try_open({}, &error);
  ASSERT_TRUE(session.has_value()) << error->what();
  const SessionInfo& info = session->info();
  EXPECT_FALSE(info.events.empty());
  EXPECT_TRUE(info.read_ns.has_value());
  if (info.rdpmc_ns && info.read_ns) {
    EXPECT_EQ(info.reader, *info.rdpmc_ns <= *info.read_ns ? Reader::Rdpmc : Reader::Read);
  }
}

}  // namespace
}  // namespace topdown::region
