// Counting real hardware events needs a CPU PMU: on machines without one (a
// VM without a virtual PMU) every test here is skipped, saying so.
#include <fmt/format.h>
#include <gtest/gtest.h>

#include <sstream>

#include "collect/collect.h"
#include "common/error.h"
#include "test_support.h"

namespace topdown::collect {
namespace {

using testing::TempDir;

// Why live counting cannot be tested here, or nullopt when it can.
std::optional<std::string> live_counting_unavailable() {
  if (!pmu_available()) {
    return "no hardware PMU on this machine (no core PMU under /sys/bus/event_source/devices; a VM without a "
           "virtual PMU?): live counting is not tested here";
  }
  if (!testing::perf_events_permitted()) return testing::kNotPermitted;
  return std::nullopt;
}

bool is_amd() { return testing::read_text("/proc/cpuinfo").find("AuthenticAMD") != std::string::npos; }

events::Encoding raw_event(const std::string& name, uint64_t config) {
  events::Encoding encoding;
  encoding.name = name;
  encoding.config = config;
  encoding.source = "raw";
  return encoding;
}

events::Encoding retired_instructions() {
  return is_amd() ? raw_event("ex_ret_instr", 0xc0) : raw_event("INST_RETIRED.ANY_P", 0xc0);
}

// Retired events count what the program does, not how fast it ran.
std::vector<events::Encoding> deterministic_events() {
  if (is_amd()) return {retired_instructions(), raw_event("ex_ret_ops", 0xc1)};
  return {retired_instructions(), raw_event("BR_INST_RETIRED.ALL_BRANCHES", 0xc4)};
}

events::Encoding core_cycles() {
  return is_amd() ? raw_event("ls_not_halted_cyc", 0x76) : raw_event("CPU_CLK_UNHALTED.THREAD_P", 0x3c);
}

// perf's spelling of these raw user-mode events. The test builds its own raw
// encodings, so it spells them itself instead of relying on the events stage.
std::string perf_raw_spelling(const events::Encoding& encoding) { return fmt::format("r{:x}:u", encoding.config); }

// perf stat -x, lines: value,unit,event,run time,percentage,...
std::map<std::string, double> parse_perf_csv(const std::string& csv) {
  std::map<std::string, double> values;
  std::istringstream lines(csv);
  for (std::string line; std::getline(lines, line);) {
    if (line.empty() || line[0] == '#') continue;
    std::vector<std::string> fields;
    std::istringstream cells(line);
    for (std::string cell; std::getline(cells, cell, ',');) fields.push_back(cell);
    if (fields.size() < 3 || fields[0].empty() || fields[0][0] == '<') continue;  // <not counted>
    values[fields[2]] = std::stod(fields[0]);
  }
  return values;
}

const std::string kDemo = TOPDOWN_DEMO_BIN;

TEST(LiveCounting, CountsCyclesAndInstructionsOfTrue) {
  if (auto reason = live_counting_unavailable()) GTEST_SKIP() << *reason;
  const WorkloadResult result = run_workload({"/bin/true"}, {CounterGroup{{retired_instructions(), core_cycles()}}});
  EXPECT_EQ(result.exit_code, 0);
  for (const events::Encoding& event : {retired_instructions(), core_cycles()}) {
    const counts::Count* count = result.sample.find(event.name);
    ASSERT_NE(count, nullptr) << event.name;
    EXPECT_GT(count->value, 1000.0) << event.name;  // the dynamic loader alone runs far more
    EXPECT_GT(count->time_running, 0u) << event.name;
  }
}

TEST(LiveCounting, DemoKernelRetiresItsLoop) {
  if (auto reason = live_counting_unavailable()) GTEST_SKIP() << *reason;
  constexpr double kIterations = 10'000'000;
  const WorkloadResult result =
      run_workload({kDemo, "alu", "--iterations", "10000000"}, {CounterGroup{{retired_instructions(), core_cycles()}}});
  ASSERT_EQ(result.exit_code, 0);
  // Each iteration is six add/shift/xor chains: at least 18 instructions.
  const double instructions = result.sample.find(retired_instructions().name)->value;
  EXPECT_GE(instructions, 18 * kIterations);
  EXPECT_LE(instructions, 30 * kIterations);
  // Independent chains keep several ALUs busy.
  EXPECT_GT(instructions / result.sample.find(core_cycles().name)->value, 1.5);
}

TEST(LiveCounting, RawCountsMatchPerfStat) {
  if (auto reason = live_counting_unavailable()) GTEST_SKIP() << *reason;
  const std::vector<std::string> workload = {kDemo, "branchy", "--iterations", "20000000"};
  const std::vector<events::Encoding> events = deterministic_events();

  TempDir dir;
  const auto csv = dir.path() / "perf.csv";
  std::vector<std::string> perf = {"perf", "stat", "-x,", "-o", csv.string()};
  for (const events::Encoding& event : events) {
    perf.push_back("-e");
    perf.push_back(perf_raw_spelling(event));
  }
  perf.push_back("--");
  perf.insert(perf.end(), workload.begin(), workload.end());
  try {
    ASSERT_EQ(run_workload(perf, {}).exit_code, 0);
  } catch (const Error& error) {
    GTEST_SKIP() << "perf is not installed: " << error.what();
  }
  const std::map<std::string, double> by_perf = parse_perf_csv(testing::read_text(csv));

  std::vector<CounterGroup> groups;
  for (const events::Encoding& event : events) groups.push_back({{event}});
  const WorkloadResult ours = run_workload(workload, groups);
  ASSERT_EQ(ours.exit_code, 0);

  for (const events::Encoding& event : events) {
    const auto perf_value = by_perf.find(perf_raw_spelling(event));
    ASSERT_NE(perf_value, by_perf.end()) << perf_raw_spelling(event) << " missing from perf's output:\n"
                                         << testing::read_text(csv);
    const counts::Count* count = ours.sample.find(event.name);
    ASSERT_NE(count, nullptr) << event.name;
    EXPECT_NEAR(count->value, perf_value->second, 0.02 * perf_value->second) << event.name;
  }
}

}  // namespace
}  // namespace topdown::collect
