// report --pprof read back by Go's pprof (Debian's golang-go), an
// independent reader of the format: the demo's functions in the order and
// with the shares of their clockticks summed here from the recording, each
// node as a sample type, and the callers of a call stack recording.
#include <gtest/gtest.h>
#include <unistd.h>

#include <map>
#include <sstream>
#include <string>
#include <vector>

#include "profile/name_samples.h"
#include "recording/data_file.h"
#include "run_command.h"
#include "support/synthetic_samples.h"
#include "support/temp_tree.h"
#include "symbols/symbolizer.h"

namespace topdown::testing {
namespace {

const std::string kTopdown = TOPDOWN_BIN;
const std::string kDemo = TOPDOWN_DEMO_BIN;
const std::string kWorkload = CALL_PATHS_WORKLOAD;
const std::string kRecord =
    kTopdown + " record --model " + std::string(TOPDOWN_SOURCE_DIR) + "/tests/data/software.model";

// A row of `go tool pprof -top`: flat%, cum% and the function.
struct TopRow {
  double flat_percent = 0;
  double cum_percent = 0;
  std::string function;
};

double percent(const std::string& word) { return std::stod(word.substr(0, word.size() - 1)); }

// The rows after the column heading ("flat  flat%   sum%  cum   cum%").
std::vector<TopRow> top_rows(const std::string& text) {
  std::vector<TopRow> rows;
  std::istringstream lines(text);
  bool in_table = false;
  for (std::string line; std::getline(lines, line);) {
    if (line.find("flat%") != std::string::npos) {
      in_table = true;
      continue;
    }
    if (!in_table) continue;
    std::istringstream words(line);
    std::string flat, flat_share, sum, cum, cum_share, function;
    words >> flat >> flat_share >> sum >> cum >> cum_share;
    std::getline(words, function);
    rows.push_back({percent(flat_share), percent(cum_share), function.substr(function.find_first_not_of(' '))});
  }
  return rows;
}

const TopRow* row_of(const std::vector<TopRow>& rows, const std::string& part) {
  for (const TopRow& row : rows) {
    if (row.function.find(part) != std::string::npos) return &row;
  }
  return nullptr;
}

class PprofCli : public ::testing::Test {
 protected:
  void SetUp() override {
    if (run_command("go version").exit_code != 0) {
      GTEST_SKIP() << "go is not installed: Debian's golang-go (scripts/setup-debian.sh) reads the profiles";
    }
  }
  void TearDown() override {
    ::unlink(data_.c_str());
    ::unlink(profile_.c_str());
  }

  void record_and_export(const std::string& options, const std::string& command) {
    const auto recorded = run_command(kRecord + " " + options + " -o " + data_ + " -- " + command);
    ASSERT_EQ(recorded.exit_code, 0) << recorded.err;
    const auto reported = run_command(kTopdown + " report --pprof " + profile_ + " " + data_);
    ASSERT_EQ(reported.exit_code, 0) << reported.err;
  }

  std::string pprof(const std::string& options) {
    const auto result = run_command("GOTOOLCHAIN=local go tool pprof " + options + " " + profile_);
    EXPECT_EQ(result.exit_code, 0) << result.err;
    return result.out;
  }

  // Each function's share of the recording's task-clock, summed here.
  std::map<std::string, double> clock_shares() const {
    recording::Recording recording = recording::read_data_file(data_);
    symbols::Symbolizer symbolizer;
    profile::name_samples(recording, symbolizer);
    std::map<std::string, double> clock;
    double whole = 0;
    for (const recording::Sample& sample : recording.samples) {
      const double delta = static_cast<double>(recording.values[sample.first_value]);  // task-clock leads
      clock[recording.symbols[sample.symbol].function] += delta;
      whole += delta;
    }
    for (auto& [function, share] : clock) share /= whole;
    return clock;
  }

  std::string data_ = ::testing::TempDir() + "pprof_cli." + std::to_string(::getpid()) + ".data";
  std::string profile_ = ::testing::TempDir() + "pprof_cli." + std::to_string(::getpid()) + ".pb.gz";
};

TEST_F(PprofCli, DemoFunctionsComeOutInOrderWithTheirClockShares) {
  record_and_export("", kDemo + " faults-and-compute");
  const auto shares = clock_shares();
  const double compute = shares.at("topdown::demo::compute_only(unsigned long)");
  const double faults = shares.at("topdown::demo::fault_pages(unsigned long)");
  ASSERT_GT(compute, faults) << "the demo gives compute_only three quarters";
  // The default sample type is the clockticks; every tree node ranks by the
  // slots lost there, and On_CPU is the same fraction in every function.
  for (const std::string options : {"-top", "-top -sample_index=clockticks", "-top -sample_index=On_CPU"}) {
    SCOPED_TRACE(options);
    const auto rows = top_rows(pprof(options));
    ASSERT_GE(rows.size(), 2u);
    EXPECT_NE(rows[0].function.find("compute_only"), std::string::npos) << rows[0].function;
    EXPECT_NE(rows[1].function.find("fault_pages"), std::string::npos) << rows[1].function;
    // The cumulative share: fault_pages's own, and that of the system call
    // helper inlined into it, which pprof shows flat as a function of its own.
    EXPECT_NEAR(rows[0].cum_percent, compute * 100, 0.3);
    EXPECT_NEAR(rows[1].cum_percent, faults * 100, 0.3);
  }
  const std::string raw = pprof("-raw");
  EXPECT_NE(raw.find("samples/count clockticks/nanoseconds[dflt] On_CPU/nanoseconds Off_CPU/nanoseconds"),
            std::string::npos)
      << raw;
  EXPECT_NE(raw.find("Comment: model: software"), std::string::npos) << raw;
  EXPECT_NE(raw.find("Comment: period: 1000 samples per second"), std::string::npos) << raw;
}

// perf script of the sampling test model, whose Faulting node is
// min(1, page-faults * 1000 ns / cpu-clock): `big` takes 80% of the clock
// and loses 1.25% of it to faults, `faulty` 20% and loses half of it.
TEST_F(PprofCli, ANodesSampleIndexRanksFunctionsByTheSlotsTheyLoseThere) {
  TempTree tree;
  const std::string script =
      tree.write("script.txt", synthetic_perf_script(
                                   {"cpu-clock", "page-faults"},
                                   {{"big", "/usr/bin/app", "", {{"cpu-clock", 8'000'000}, {"page-faults", 100}}},
                                    {"faulty", "/usr/bin/app", "", {{"cpu-clock", 2'000'000}, {"page-faults", 1000}}}}))
          .string();
  const auto reported = run_command(kTopdown + " report --model " + std::string(TOPDOWN_SOURCE_DIR) +
                                    "/tests/data/software_sampling.model --pprof " + profile_ + " " + script);
  ASSERT_EQ(reported.exit_code, 0) << reported.err;
  const auto by_clock = top_rows(pprof("-top"));
  ASSERT_GE(by_clock.size(), 2u);
  EXPECT_EQ(by_clock[0].function, "big");
  EXPECT_NEAR(by_clock[0].flat_percent, 80, 0.01);
  const double big_slots = 8'000'000 * (100 * 1000.0 / 8'000'000);      // 100,000 ns
  const double faulty_slots = 2'000'000 * (1000 * 1000.0 / 2'000'000);  // 1,000,000 ns
  const auto by_faulting = top_rows(pprof("-top -sample_index=Faulting"));
  ASSERT_GE(by_faulting.size(), 2u);
  EXPECT_EQ(by_faulting[0].function, "faulty");
  EXPECT_NEAR(by_faulting[0].flat_percent, 100 * faulty_slots / (faulty_slots + big_slots), 0.05);
  EXPECT_NEAR(by_faulting[1].flat_percent, 100 * big_slots / (faulty_slots + big_slots), 0.05);
}

// Two exports of recordings made with the same options (the sampling test
// model's perf script) have the same sample types and units, so pprof
// subtracts A from B: `faulty` took 4 ms more of the clock in B, `big` 4 ms
// less, and Faulting's slots moved with them.
TEST_F(PprofCli, TwoExportsOfOneRecordingSetupDiffInGoPprof) {
  TempTree tree;
  const std::string model = " --model " + std::string(TOPDOWN_SOURCE_DIR) + "/tests/data/software_sampling.model";
  const auto script = [&](const std::string& name, uint64_t big_clock, uint64_t faulty_clock) {
    return tree
        .write(name, synthetic_perf_script(
                         {"cpu-clock", "page-faults"},
                         {{"big", "/usr/bin/app", "", {{"cpu-clock", big_clock}, {"page-faults", 100}}},
                          {"faulty", "/usr/bin/app", "", {{"cpu-clock", faulty_clock}, {"page-faults", 1000}}}}))
        .string();
  };
  const std::string base = (tree.root() / "a.pb.gz").string();
  for (const auto& [file, out] : {std::pair{script("a.txt", 8'000'000, 2'000'000), base},
                                  std::pair{script("b.txt", 4'000'000, 6'000'000), profile_}}) {
    const auto reported = run_command(kTopdown + " report" + model + " --pprof " + out + " " + file);
    ASSERT_EQ(reported.exit_code, 0) << reported.err;
  }
  const std::string types = "samples/count clockticks/nanoseconds[dflt] Faulting/nanoseconds Computing/nanoseconds";
  EXPECT_NE(pprof("-raw").find(types), std::string::npos) << pprof("-raw");
  const auto diff = run_command("GOTOOLCHAIN=local go tool pprof -top -diff_base " + base + " " + profile_);
  ASSERT_EQ(diff.exit_code, 0) << diff.err;
  const std::vector<TopRow> rows = top_rows(diff.out);
  const TopRow* faulty = row_of(rows, "faulty");
  const TopRow* big = row_of(rows, "big");
  ASSERT_TRUE(faulty && big) << diff.out;
  // B - A: faulty 4 ms more of the clock, big 4 ms less (pprof gives the
  // share of the base's 10 ms without its sign: 40%).
  const auto line_of = [&](const std::string& function) {
    const size_t end = diff.out.find(" " + function + "\n");
    return diff.out.substr(diff.out.rfind('\n', end) + 1, end - diff.out.rfind('\n', end));
  };
  EXPECT_TRUE(line_of("faulty").starts_with("       4ms 40.00%")) << diff.out;
  EXPECT_TRUE(line_of("big").starts_with("      -4ms 40.00%")) << diff.out;
  EXPECT_NEAR(faulty->flat_percent, 40, 0.01);
  EXPECT_NEAR(big->flat_percent, 40, 0.01);
  // Faulting's slots: faulty lost half its clock to faults in A (1 ms of
  // 2) and 1/6 in B (1 ms of 6): no change; big 100 us in both.
  const auto faulting =
      run_command("GOTOOLCHAIN=local go tool pprof -top -sample_index=Faulting -diff_base " + base + " " + profile_);
  ASSERT_EQ(faulting.exit_code, 0) << faulting.err;
  for (const TopRow& row : top_rows(faulting.out)) EXPECT_NEAR(row.flat_percent, 0, 0.01) << faulting.out;
}

TEST_F(PprofCli, ACallStackRecordingShowsTheCallersOfLeaf) {
  record_and_export("-g", kWorkload + " 4");
  const auto rows = top_rows(pprof("-top -cum"));
  const TopRow* outer_a = row_of(rows, "outer_a");
  const TopRow* outer_b = row_of(rows, "outer_b");
  const TopRow* leaf = row_of(rows, "leaf");
  ASSERT_TRUE(outer_a && outer_b && leaf) << rows.size() << " rows";
  EXPECT_EQ(outer_a->flat_percent, 0) << "callers only";
  EXPECT_NEAR(outer_a->cum_percent / (outer_a->cum_percent + outer_b->cum_percent), 1.0 / 3, 0.08);
  EXPECT_GT(leaf->flat_percent, 80);
  const std::string peek = pprof("-peek '^leaf'");
  const std::size_t callee = peek.find("| leaf(unsigned long)");
  ASSERT_NE(callee, std::string::npos) << peek;
  EXPECT_LT(peek.find("|   outer_a(unsigned long)"), callee) << "listed above leaf as its callers: " << peek;
  EXPECT_LT(peek.find("|   outer_b(unsigned long)"), callee) << peek;
}

}  // namespace
}  // namespace topdown::testing
