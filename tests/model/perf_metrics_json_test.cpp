#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <cstdlib>
#include <fstream>
#include <map>
#include <nlohmann/json.hpp>

#include "../support/temp_tree.h"
#include "model/perf_metrics_json.h"

namespace topdown::model {
namespace {

using ::testing::AllOf;
using ::testing::ElementsAre;
using ::testing::HasSubstr;
using topdown::testing::TempTree;

// What perf's file lacks: the CPU.
Model toy_cpu() {
  Model cpu;
  cpu.name = "toy";
  cpu.title = "Toy CPU";
  cpu.cpus = {CpuMatch{cpu::Vendor::Intel, 6, 0x3C, 0x3F}};
  cpu.event_tables = {"toy_events", "intel_core"};
  cpu.pfm_pmu = "hsw";
  cpu.counters = {4, 8, 3};
  cpu.constants = {{"Pipeline_Width", 4}, {"Mem_Cost", 9}};
  cpu.source = "/models/toy.model";
  return cpu;
}

// Level 1 in file order after its child; an Info metric in tma_L1_group, a
// bottleneck, a metric outside TMA.
constexpr const char* kToyMetrics = R"([
  {"MetricName": "tma_fetch_latency", "MetricExpr": "FE_LAT / tma_info_thread_slots",
   "MetricGroup": "Frontend;TopdownL2;tma_L2_group;tma_frontend_bound_group", "ScaleUnit": "100%",
   "MetricThreshold": "tma_fetch_latency > 0.1 & tma_frontend_bound > 0.15",
   "BriefDescription": "Fetch latency",
   "PublicDescription": "Fetch latency, long. Sample with: FE_RETIRED.L1I_MISS_PS;FE_RETIRED.LAT_16_PS. Related metrics: x"},
  {"MetricName": "tma_frontend_bound", "MetricExpr": "IDQ_NOT_DELIVERED / tma_info_thread_slots",
   "MetricGroup": "TopdownL1;tma_L1_group", "ScaleUnit": "100%", "MetricThreshold": "tma_frontend_bound > 0.15",
   "BriefDescription": "Frontend bound"},
  {"MetricName": "tma_retiring", "MetricExpr": "RETIRED_SLOTS / tma_info_thread_slots",
   "MetricGroup": "TopdownL1;tma_L1_group", "ScaleUnit": "100%",
   "MetricThreshold": "tma_retiring > 0.7 | tma_heavy_operations > 0.1"},
  {"MetricName": "tma_heavy_operations", "MetricExpr": "MS_UOPS / tma_info_thread_slots",
   "MetricGroup": "TopdownL2;tma_L2_group;tma_retiring_group", "MetricThreshold": "tma_heavy_operations > 0.1"},
  {"MetricName": "tma_info_thread_slots", "MetricExpr": "4 * CLKS", "MetricGroup": "TmaL1;tma_L1_group"},
  {"MetricName": "tma_bottleneck_fetch", "MetricExpr": "100 * tma_fetch_latency", "MetricThreshold": "tma_bottleneck_fetch > 20"},
  {"MetricName": "C6_Residency", "MetricExpr": "cstate_core@c6\\-residency@ / msr@tsc@", "ScaleUnit": "100%"},
  {"MetricName": "dram_bw", "MetricExpr": "BYTES / duration_time", "ScaleUnit": "1MB/s"},
  {"MetricName": "latency", "MetricExpr": "CYCLES / REQUESTS", "ScaleUnit": "64Bytes"}
])";

Model load(const std::string& json, const Model& cpu = toy_cpu()) {
  TempTree tree;
  return load_perf_metrics_json(tree.write("toy-metrics.json", json), cpu);
}

std::vector<std::string> names(const Model& model) {
  std::vector<std::string> out;
  for (const Node& node : model.nodes) out.push_back(node.name);
  return out;
}

expr::Value evaluate(const expr::Expression& formula, const std::map<std::string, double, std::less<>>& values) {
  return formula.evaluate(expr::FunctionScope([&](std::string_view name) -> expr::Value {
    const auto found = values.find(name);
    if (found == values.end()) throw Error("no value for " + std::string(name));
    return found->second;
  }));
}

TEST(PerfMetricsJson, TreeComesFromTheParentGroups) {
  const Model model = load(kToyMetrics);
  EXPECT_THAT(names(model),
              ElementsAre("tma_frontend_bound", "tma_fetch_latency", "tma_retiring", "tma_heavy_operations",
                          "tma_info_thread_slots", "tma_bottleneck_fetch", "C6_Residency", "dram_bw", "latency"));
  const Node& fetch = *model.find("tma_fetch_latency");
  EXPECT_EQ(fetch.parent, "tma_frontend_bound");
  EXPECT_EQ(fetch.level, 2);
  EXPECT_FALSE(fetch.is_info);
  EXPECT_EQ(model.find("tma_frontend_bound")->level, 1);
  EXPECT_EQ(model.find("tma_frontend_bound")->parent, "");
  EXPECT_EQ(model.find("tma_heavy_operations")->parent, "tma_retiring");
  for (const char* info : {"tma_info_thread_slots", "tma_bottleneck_fetch", "C6_Residency", "dram_bw"}) {
    EXPECT_TRUE(model.find(info)->is_info) << info;
    EXPECT_EQ(model.find(info)->level, 0) << info;
  }
  EXPECT_THAT(model.children(""), ElementsAre(model.find("tma_frontend_bound"), model.find("tma_retiring")));
}

TEST(PerfMetricsJson, TheCpuModelGivesWhatTheFileLacks) {
  const Model model = load(kToyMetrics);
  EXPECT_EQ(model.name, "toy");
  EXPECT_EQ(model.title, "Toy CPU, perf metrics of toy-metrics.json");
  EXPECT_EQ(to_string(model.cpus.at(0)), "Intel 0x6 0x3C-0x3F");
  EXPECT_THAT(model.event_tables, ElementsAre("toy_events", "intel_core"));
  EXPECT_EQ(model.pfm_pmu, "hsw");
  EXPECT_EQ(model.counters.general, 4u);
  EXPECT_EQ(model.counters.general_without_smt, 8u);
  EXPECT_EQ(model.counters.fixed, 3u);
  // Only Pipeline_Width, for #slots: the file's formulas use none of ours.
  EXPECT_EQ(model.constants, (std::map<std::string, double, std::less<>>{{"Pipeline_Width", 4}}));
  EXPECT_EQ(model.source, "/models/toy.model");
}

TEST(PerfMetricsJson, ValuesAreUnscaledAndUnitsSayWhatPerfShows) {
  const Model model = load(kToyMetrics);
  const Node& frontend = *model.find("tma_frontend_bound");
  EXPECT_EQ(evaluate(frontend.formula, {{"IDQ_NOT_DELIVERED", 300}, {"tma_info_thread_slots", 1200}}), 0.25);
  EXPECT_EQ(frontend.unit, "");
  EXPECT_EQ(model.find("C6_Residency")->unit, "fraction");
  EXPECT_EQ(evaluate(model.find("C6_Residency")->formula, {{"cstate_core/c6-residency/", 5}, {"msr/tsc/", 20}}), 0.25);
  EXPECT_EQ(model.find("dram_bw")->unit, "MB/s");
  EXPECT_EQ(model.find("latency")->unit, "64 Bytes");
  EXPECT_EQ(model.find("tma_info_thread_slots")->unit, "");
}

TEST(PerfMetricsJson, ThresholdsAskTheParentAndOtherVerdicts) {
  const Model model = load(kToyMetrics);
  EXPECT_EQ(model.find("tma_frontend_bound")->threshold->to_string(), "this > 0.15");
  EXPECT_EQ(model.find("tma_fetch_latency")->threshold->to_string(), "this > 0.1 and parent_over");
  EXPECT_EQ(model.find("tma_retiring")->threshold->to_string(), "this > 0.7 or over(tma_heavy_operations)");
  EXPECT_EQ(model.find("tma_bottleneck_fetch")->threshold->to_string(), "this > 20");
  EXPECT_FALSE(model.find("tma_info_thread_slots")->threshold);
}

TEST(PerfMetricsJson, AThresholdThatIsAnotherMetricsTestStaysAValueTest) {
  // The whole threshold of tma_b is tma_a's test: replacing it by over(tma_a)
  // would be right here, but two metrics with one test would wait on each other.
  const Model model = load(R"([
    {"MetricName": "tma_a", "MetricExpr": "A", "MetricGroup": "TopdownL1", "MetricThreshold": "tma_a > 1 & tma_b > 1"},
    {"MetricName": "tma_b", "MetricExpr": "B", "MetricGroup": "TopdownL1", "MetricThreshold": "tma_a > 1 & tma_b > 1"}
  ])");
  EXPECT_EQ(model.find("tma_a")->threshold->to_string(), "this > 1 and tma_b > 1");
  EXPECT_EQ(model.find("tma_b")->threshold->to_string(), "tma_a > 1 and this > 1");
}

TEST(PerfMetricsJson, DescriptionsAndSampleEvents) {
  const Model model = load(kToyMetrics);
  const Node& fetch = *model.find("tma_fetch_latency");
  EXPECT_THAT(fetch.description, HasSubstr("Fetch latency, long."));
  EXPECT_THAT(fetch.sample_events, ElementsAre("FE_RETIRED.L1I_MISS_PS", "FE_RETIRED.LAT_16_PS"));
  EXPECT_EQ(model.find("tma_frontend_bound")->description, "Frontend bound");
  EXPECT_THAT(fetch.groups, ElementsAre("Frontend", "TopdownL2", "tma_L2_group", "tma_frontend_bound_group"));
}

std::string formula_of(const std::string& metric_expr) {
  nlohmann::json metrics = nlohmann::json::array();
  metrics.push_back({{"MetricName", "tma_x"}, {"MetricExpr", metric_expr}, {"MetricGroup", "TopdownL1"}});
  return load(metrics.dump()).find("tma_x")->formula.to_string();
}

TEST(PerfMetricsJson, PerfLiteralsBecomeRunVariablesOrNa) {
  EXPECT_EQ(formula_of("A / 2 if #SMT_on else A"), "A / 2 if #smt_on else A");
  EXPECT_EQ(formula_of("A * #slots"), "A * #slots");
  EXPECT_EQ(formula_of("A / #num_cpus_online"), "A / #num_cpus_online");
  EXPECT_EQ(formula_of("B if #core_wide < 1 else C"), "B if (not ebs_mode) < 1 else C");
  EXPECT_EQ(formula_of("A / #num_dies"), "A / (0 / 0)");
  EXPECT_EQ(formula_of("(A if has_event(cycles\\-t) else 0)"), "A if 0 / 0 else 0");
  EXPECT_EQ(formula_of("A / duration_time"), "A / duration_time");
}

TEST(PerfMetricsJson, EventTermsBecomeOurModifiers) {
  EXPECT_EQ(formula_of("cpu@UOPS_EXECUTED.CORE\\,cmask\\=1@"), "UOPS_EXECUTED.CORE:c1");
  EXPECT_EQ(formula_of("cpu@UOPS_EXECUTED.CORE\\,inv\\,cmask\\=1@"), "UOPS_EXECUTED.CORE:i1:c1");
  EXPECT_EQ(formula_of("cpu@INT_MISC.RECOVERY_CYCLES\\,cmask\\=1\\,edge@"), "INT_MISC.RECOVERY_CYCLES:c1:e1");
  EXPECT_EQ(formula_of("cpu@BR_MISP_EXEC.ALL_BRANCHES\\,umask\\=0xE4@"), "BR_MISP_EXEC.ALL_BRANCHES:u0xE4");
  EXPECT_EQ(formula_of("UNC_ARB_TRK_OCCUPANCY.DATA_READ@cmask\\=1@"), "UNC_ARB_TRK_OCCUPANCY.DATA_READ:c1");
  // Terms without a TMA modifier, and PMU events, stay perf's.
  EXPECT_EQ(formula_of("UNC_CHA_TOR_OCCUPANCY.IA_MISS_DRD@thresh\\=1@"), "UNC_CHA_TOR_OCCUPANCY.IA_MISS_DRD@thresh=1@");
  EXPECT_EQ(formula_of("msr@tsc@ + cpu@event\\=0x3c@"), "msr/tsc/ + cpu/event=0x3c/");
}

// Every error names the file; those about one metric name the metric.
void expect_error(const std::string& json, const std::string& what) {
  TempTree tree;
  const auto file = tree.write("bad-metrics.json", json);
  try {
    load_perf_metrics_json(file, toy_cpu());
    ADD_FAILURE() << "no error for " << json;
  } catch (const Error& error) {
    const std::string message = error.what();
    EXPECT_THAT(message, AllOf(HasSubstr(file.string()), HasSubstr(what)));
    EXPECT_EQ(message.find('\n'), std::string::npos) << message;
  }
}

std::string one_metric(const std::string& fields) {
  return R"([{"MetricName": "tma_x", "MetricGroup": "TopdownL1", )" + fields + "}]";
}

TEST(PerfMetricsJson, BadFilesAreReportedByFileAndMetric) {
  expect_error("[{\"MetricName\": ", "is not JSON");
  expect_error(R"([{"MetricName": "tma_x", "ScaleUnit": 1e999}])", "holds a number too large for a double");
  expect_error(R"({"MetricName": "a"})", "expected a JSON array of metrics");
  expect_error("[3]", "entry 1 is not an object");
  expect_error(R"([{"MetricExpr": "A"}])", "entry 1 has no MetricName");
  expect_error(R"([{"MetricName": "a-b", "MetricExpr": "A"}])", "metric a-b: the name is not letters");
  expect_error(R"([{"MetricName": "duration_time", "MetricExpr": "A"}])",
               "metric duration_time: the name is a run variable");
  expect_error(R"([{"MetricName": "a", "MetricExpr": ""}])", "metric a: no MetricExpr");
  expect_error(R"([{"MetricName": "a", "MetricExpr": 1}])", "metric a: MetricExpr is not a string");
  expect_error(R"([{"MetricName": "a", "MetricExpr": "A"}, {"MetricName": "a", "MetricExpr": "B"}])",
               "metric a: defined twice");
  expect_error(one_metric(R"("MetricExpr": "A / (B")"), "metric tma_x: MetricExpr column 7: expected ')'");
  expect_error(one_metric(R"("MetricExpr": "A", "MetricThreshold": "tma_x >")"),
               "metric tma_x: MetricThreshold column 8");
  expect_error(one_metric(R"("MetricExpr": "A / tma_y")"), "metric tma_x: MetricExpr: uses tma_y, which no metric");
  expect_error(one_metric(R"("MetricExpr": "A", "MetricThreshold": "tma_z > 1")"),
               "metric tma_x: MetricThreshold: uses tma_z");
  expect_error(one_metric(R"("MetricExpr": "A * #num_widgets")"),
               "metric tma_x: MetricExpr: unknown literal #num_widgets");
  expect_error(one_metric(R"("MetricExpr": "A", "ScaleUnit": "MB/s")"),
               "metric tma_x: ScaleUnit 'MB/s' is not a number");
  expect_error(one_metric(R"("MetricExpr": "A", "ScaleUnit": "100")"), "metric tma_x: ScaleUnit '100' is not a number");
}

TEST(PerfMetricsJson, BadTreesAreReportedByMetric) {
  expect_error(R"([{"MetricName": "tma_x", "MetricExpr": "A", "MetricGroup": "TopdownL2"}])",
               "metric tma_x: in no tma_<parent>_group group and not in TopdownL1");
  expect_error(R"([{"MetricName": "tma_x", "MetricExpr": "A", "MetricGroup": "TopdownL2;tma_y_group"}])",
               "metric tma_x: group tma_y_group names no metric tma_y");
  expect_error(R"([{"MetricName": "tma_info_y", "MetricExpr": "A"},
                   {"MetricName": "tma_x", "MetricExpr": "A", "MetricGroup": "tma_info_y_group"}])",
               "metric tma_x: group tma_info_y_group makes Info metric tma_info_y a parent");
  expect_error(R"([{"MetricName": "tma_a", "MetricExpr": "A", "MetricGroup": "TopdownL1"},
                   {"MetricName": "tma_b", "MetricExpr": "A", "MetricGroup": "TopdownL1"},
                   {"MetricName": "tma_x", "MetricExpr": "A", "MetricGroup": "tma_a_group;tma_b_group"}])",
               "metric tma_x: in two parent groups, tma_a_group and tma_b_group");
  expect_error(R"([{"MetricName": "tma_a", "MetricExpr": "A", "MetricGroup": "TopdownL1"},
                   {"MetricName": "tma_x", "MetricExpr": "A", "MetricGroup": "TopdownL3;tma_a_group"}])",
               "metric tma_x: group TopdownL3 says level 3 but its parent groups make it level 2");
  expect_error(R"([{"MetricName": "tma_a", "MetricExpr": "A", "MetricGroup": "tma_b_group"},
                   {"MetricName": "tma_b", "MetricExpr": "A", "MetricGroup": "tma_a_group"}])",
               "metric tma_a: its parent groups form a loop");
  std::string deep = R"([{"MetricName": "tma_n1", "MetricExpr": "A", "MetricGroup": "TopdownL1"})";
  for (int level = 2; level <= 7; ++level) {
    deep += R"(, {"MetricName": "tma_n)" + std::to_string(level) + R"(", "MetricExpr": "A", "MetricGroup": "tma_n)" +
            std::to_string(level - 1) + R"(_group"})";
  }
  expect_error(deep + "]", "metric tma_n7: deeper than level 6");
  expect_error(R"([{"MetricName": "tma_a", "MetricExpr": "tma_b", "MetricGroup": "TopdownL1"},
                   {"MetricName": "tma_b", "MetricExpr": "2 * tma_a", "MetricGroup": "TopdownL1"}])",
               "metrics use each other in a circle: tma_a -> tma_b -> tma_a");
}

TEST(PerfMetricsJson, AFileThatCannotBeReadIsNamed) {
  TempTree tree;
  EXPECT_THAT(
      [&] { load_perf_metrics_json(tree.root() / "absent.json", toy_cpu()); },
      ::testing::ThrowsMessage<Error>(AllOf(HasSubstr("cannot open perf metric file"), HasSubstr("absent.json"))));
  EXPECT_THAT([&] { load_perf_metrics_json(tree.root(), toy_cpu()); },
              ::testing::ThrowsMessage<Error>(HasSubstr("is a directory")));
}

std::filesystem::path perf_json_dir() {
  const char* shared = std::getenv("TOPDOWN_SHARED_DIR");
  const std::filesystem::path dir = shared ? shared : std::filesystem::path(TOPDOWN_SOURCE_DIR) / ".." / "shared";
  return dir / "reference" / "perf-json";
}

// Tree nodes per level as the file's TopdownL<n> groups count them.
std::map<int, int> declared_levels(const std::filesystem::path& file) {
  std::ifstream in(file);
  std::map<int, int> levels;
  for (const auto& metric : nlohmann::json::parse(in)) {
    const std::string name = metric["MetricName"];
    const std::string groups = ";" + metric.value("MetricGroup", "") + ";";
    if (!name.starts_with("tma_") || name.starts_with("tma_info_") || name.starts_with("tma_bottleneck_")) continue;
    for (int level = 1; level <= 6; ++level) {
      if (groups.find(";TopdownL" + std::to_string(level) + ";") != std::string::npos) ++levels[level];
    }
  }
  return levels;
}

TEST(PerfMetricsJson, ReferenceFilesLoadWithTheLevelsTheyDeclare) {
  const std::vector<std::pair<std::string, std::string>> files = {
      {"haswell", "hsw"}, {"skylake", "skl"}, {"icelake", "icl"}, {"sapphirerapids", "spr"}};
  for (const auto& [folder, prefix] : files) {
    const auto file = perf_json_dir() / folder / (prefix + "-metrics.json");
    if (!std::filesystem::exists(file))
      GTEST_SKIP() << file << " is absent; set TOPDOWN_SHARED_DIR to the shared folder";
    const Model model = load_perf_metrics_json(file, toy_cpu());
    std::map<int, int> levels;
    for (const Node& node : model.nodes) {
      if (!node.is_info) ++levels[node.level];
    }
    const std::map<int, int> declared = declared_levels(file);
    EXPECT_EQ(levels, declared) << file;
    EXPECT_EQ(declared.at(1), 4) << file;
    EXPECT_EQ(declared.size(), 6u) << file;
  }
}

}  // namespace
}  // namespace topdown::model
