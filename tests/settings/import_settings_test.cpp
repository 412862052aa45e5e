#include <gtest/gtest.h>

#include <filesystem>

#include "common/error.h"
#include "events/model_resolver.h"
#include "settings/import.h"

namespace topdown::settings {
namespace {

const std::filesystem::path kModels = std::filesystem::path(TOPDOWN_SOURCE_DIR) / "models";

// Ice Lake's model, its events resolved for Ice Lake, and a file's facts.
class ImportSettings : public ::testing::Test {
 protected:
  ImportSettings() {
    options_.file = "perf.csv";
    options_.report.level = 1;
  }

  ImportDecision decide() {
    return decide_import(options_, read_measured_machine(options_), model_, resolver_, file_, sample_);
  }
  void count(const std::string& event, double value) { sample_.events[event] = {value, 10, 10}; }

  model::Model model_ = model::load_model(kModels / "icl.model");
  events::Resolver resolver_{events::offline_resolver_config(model_)};
  ImportOptions options_;
  import::FileInfo file_;
  counts::Sample sample_;
};

const std::string kNoSmt = "the file does not say whether SMT was on; assumed off (--smt on|off says it)";

TEST_F(ImportSettings, SmtFromTheOptionElseTheFileElseOffWithAWarning) {
  ImportDecision decision = decide();
  EXPECT_FALSE(decision.vars.smt_enabled);
  EXPECT_EQ(decision.warnings, std::vector<std::string>{kNoSmt});
  file_.smt_enabled = true;
  decision = decide();
  EXPECT_TRUE(decision.vars.smt_enabled);
  EXPECT_TRUE(decision.warnings.empty());
  options_.smt = Toggle::Off;
  EXPECT_FALSE(decide().vars.smt_enabled);
}

TEST_F(ImportSettings, PerfMetricsFromTheOptionElseTheFileElseItsFields) {
  file_.smt_enabled = false;
  EXPECT_FALSE(decide().vars.perf_metrics);
  count("PERF_METRICS.RETIRING", 100);
  EXPECT_TRUE(decide().vars.perf_metrics) << "the sample has a PERF_METRICS field";
  file_.perf_metrics = false;
  EXPECT_FALSE(decide().vars.perf_metrics);
  options_.perf_metrics = Toggle::On;
  EXPECT_TRUE(decide().vars.perf_metrics);
}

TEST_F(ImportSettings, TheFilesRunVariables) {
  file_.ebs_mode = true;
  file_.online_cpus = 12;
  const ImportDecision decision = decide();
  EXPECT_TRUE(decision.vars.ebs_mode);
  EXPECT_EQ(decision.vars.online_cpus, 12);
}

TEST_F(ImportSettings, RepeatedEventsArePooledAndSaid) {
  file_.smt_enabled = false;
  file_.repeated_events = {"cycles", "instructions"};
  EXPECT_EQ(decide().warnings,
            std::vector<std::string>{"perf.csv has more than one row per interval of cycles, instructions (counted "
                                     "by several groups): each event's rows are pooled into one count, not added"});
}

TEST_F(ImportSettings, TheLevelsNodesThenTheInfoMetricsTheFileCounted) {
  file_.smt_enabled = false;
  ImportDecision decision = decide();
  const std::vector<std::string> level1 = {"Frontend_Bound", "Bad_Speculation", "Backend_Bound", "Retiring"};
  ASSERT_GE(decision.nodes.size(), 4u);
  EXPECT_EQ(std::vector<std::string>(decision.nodes.begin(), decision.nodes.begin() + 4), level1);
  const auto has = [](const ImportDecision& d, const std::string& node) {
    return std::find(d.nodes.begin(), d.nodes.end(), node) != d.nodes.end();
  };
  EXPECT_FALSE(has(decision, "Info_Thread_IPC"));
  count("INST_RETIRED.ANY", 2000);
  count("CPU_CLK_UNHALTED.THREAD", 1000);
  EXPECT_TRUE(has(decide(), "Info_Thread_IPC")) << "its events are in the file";
  options_.all_info = true;
  options_.report.level = 2;
  decision = decide();
  EXPECT_TRUE(has(decision, "Fetch_Latency"));
  EXPECT_TRUE(has(decision, "Info_Thread_IPC"));
  EXPECT_TRUE(has(decision, "Info_Thread_Slots_Utilization")) << "--info: every Info metric";
}

TEST_F(ImportSettings, FallbacksForAFileOfThePerfMetricsFieldsAlone) {
  file_.smt_enabled = false;
  for (const char* field : {"PERF_METRICS.RETIRING", "PERF_METRICS.BAD_SPECULATION", "PERF_METRICS.FRONTEND_BOUND",
                            "PERF_METRICS.BACKEND_BOUND"}) {
    count(field, 1000);
  }
  count("TOPDOWN.SLOTS", 4000);
  const ImportDecision decision = decide();
  EXPECT_FALSE(decision.fallbacks.empty());
  ASSERT_EQ(decision.warnings.size(), 1u);
  EXPECT_EQ(decision.warnings[0].rfind("perf.csv lacks ", 0), 0u) << decision.warnings[0];
  EXPECT_NE(decision.warnings[0].find("INT_MISC.UOP_DROPPING"), std::string::npos) << decision.warnings[0];
  EXPECT_NE(decision.warnings[0].find("(marked ~)"), std::string::npos);
}

TEST_F(ImportSettings, CoreWideEventsAreThePercoreOnes) {
  EXPECT_EQ(core_wide_events({"TOPDOWN.SLOTS", "TOPDOWN.SLOTS:percore", "not-an-event"}, resolver_),
            (std::set<std::string, std::less<>>{"TOPDOWN.SLOTS:percore"}));
}

TEST_F(ImportSettings, TopologyFromTheOptionElseThisMachineWhenNeeded) {
  const std::vector<counts::Place> cpus = {{"CPU0", {}}, {"CPU1", {}}};
  const std::vector<counts::Place> cores = {{"S0-D0-C0", {}}};
  options_.per = aggregate::View::Core;
  EXPECT_EQ(import_topology_source(options_, cpus, false, true), TopologySource::ThisMachine);
  EXPECT_EQ(import_topology_source(options_, cpus, false, false), TopologySource::None) << "another CPU's file";
  EXPECT_EQ(import_topology_source(options_, cores, false, true), TopologySource::None) << "perf grouped them";
  options_.per = aggregate::View::Thread;
  EXPECT_EQ(import_topology_source(options_, cpus, false, true), TopologySource::None) << "each CPU alone";
  EXPECT_EQ(import_topology_source(options_, cpus, true, true), TopologySource::ThisMachine) << ":percore sums";
  options_.topology = "lscpu.txt";
  EXPECT_EQ(import_topology_source(options_, cores, false, false), TopologySource::File);
  EXPECT_EQ(this_machine_topology_warning(8, options_),
            "no --topology: the CPUs are grouped as on this machine (8 CPUs in /sys), assuming perf.csv was "
            "counted here; give the measured machine's `lscpu -p=CPU,CORE,SOCKET` output with --topology FILE "
            "otherwise");
}

TEST_F(ImportSettings, TheFileMustHaveWhatTheOptionsAskFor) {
  const auto error_of = [&](const import::Interval& interval) -> std::string {
    try {
      check_interval(options_, interval);
    } catch (const Error& error) {
      return error.what();
    }
    return "";
  };
  import::Interval whole;
  EXPECT_EQ(error_of(whole), "");
  options_.per_interval = true;
  EXPECT_EQ(error_of(whole), "perf.csv has no intervals (perf stat -I); leave out --per-interval");
  whole.time_s = 1.0;
  EXPECT_EQ(error_of(whole), "");
  options_.per = aggregate::View::Socket;
  EXPECT_EQ(error_of(whole),
            "perf.csv has no rows per CPU, core, socket or thread; --per-socket needs perf stat -A (or perf's "
            "--per-core, --per-socket, --per-thread) output");
  whole.places.push_back({"S0", {}});
  EXPECT_EQ(error_of(whole), "");
}

}  // namespace
}  // namespace topdown::settings
