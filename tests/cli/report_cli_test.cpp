// topdown report of perf script files: synthetic ones of Intel models with
// known per-function counts (each function's tree must be what import gives
// its summed counts) and a real perf record of software events.
#include <gtest/gtest.h>

#include <filesystem>
#include <nlohmann/json.hpp>
#include <sstream>

#include "../support/synthetic_samples.h"
#include "../support/temp_tree.h"
#include "function_reports.h"
#include "import/import.h"
#include "model/model.h"
#include "run_command.h"

namespace topdown::testing {
namespace {

const std::string kTopdown = TOPDOWN_BIN;
const std::filesystem::path kSource = TOPDOWN_SOURCE_DIR;
const std::string kSampling = (kSource / "tests/data/software_sampling.model").string();

std::vector<std::string> function_order(const std::vector<nlohmann::json>& objects) {
  std::vector<std::string> names;
  for (const auto& object : objects) {
    if (object.contains("function")) names.push_back(object["function"]);
  }
  return names;
}

// An Intel model's events, its unhalted cycles first (the leader, and the clock).
std::vector<std::string> intel_group(const std::string& cpu) {
  const model::Model model = model::load_model(kSource / "models" / (cpu + ".model"));
  std::vector<std::string> group = {"CPU_CLK_UNHALTED.THREAD"};
  for (const auto& event : import::model_events(model)) {
    if (event != group[0]) group.push_back(event);
  }
  return group;
}

// 80%, 10% (on 10 samples), 5.1% and 4.9% of 1e9 cycles.
std::vector<SyntheticFunction> intel_functions(const std::vector<std::string>& group) {
  std::vector<SyntheticFunction> functions;
  for (const auto& [name, cycles, samples] : {std::tuple{"big", 800'000'000ULL, 40},
                                              {"sparse", 100'000'000ULL, 10},
                                              {"hot", 51'000'000ULL, 40},
                                              {"cold", 49'000'000ULL, 40}}) {
    SyntheticFunction function;
    function.name = name;
    function.source = std::string(name) + ".c:7";
    function.totals = intel_totals(group, cycles);
    function.samples = samples;
    functions.push_back(std::move(function));
  }
  return functions;
}

void expect_same_values(const nlohmann::json& ours, const nlohmann::json& imported, bool flags) {
  for (const char* list : {"nodes", "info"}) {
    ASSERT_EQ(ours[list].size(), imported[list].size()) << list;
    for (size_t i = 0; i < ours[list].size(); ++i) {
      const auto& a = ours[list][i];
      const auto& b = imported[list][i];
      ASSERT_EQ(a["name"], b["name"]);
      if (b["value"].is_null()) {
        EXPECT_TRUE(a["value"].is_null()) << a["name"];
      } else {
        EXPECT_DOUBLE_EQ(a["value"].get<double>(), b["value"].get<double>()) << a["name"];
      }
      if (flags) {
        EXPECT_EQ(a["over_threshold"], b["over_threshold"]) << a["name"];
        EXPECT_EQ(a["bottleneck"], b["bottleneck"]) << a["name"];
      }
    }
  }
}

class IntelReport : public ::testing::TestWithParam<std::string> {};

TEST_P(IntelReport, EachFunctionsTreeIsImportOfItsSummedCounts) {
  const std::string cpu = GetParam();
  TempTree tree;
  const auto group = intel_group(cpu);
  const auto functions = intel_functions(group);
  const auto script = tree.write("script.txt", synthetic_perf_script(group, functions)).string();
  const auto out = (tree.root() / "report.json").string();
  auto r = run_command(kTopdown + " report --cpu " + cpu + " --smt off -l 3 -v --json -o " + out + " " + script);
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const auto objects = json_lines(slurp(out));
  EXPECT_EQ(function_order(objects), (std::vector<std::string>{"[whole program]", "big", "sparse", "hot", "cold"}));
  for (const auto& function : functions) {
    const auto& ours = function_object(objects, function.name);
    // A function's time is the run's times its share of the clockticks.
    const std::string time = fmt::format("interval-s {}\n", ours["elapsed_s"].get<double>());
    const auto counts = tree.write(function.name + ".counts", counts_file(function.totals, false) + time).string();
    auto imported = run_command(kTopdown + " import --cpu " + cpu + " --smt off -l 3 --json " + counts);
    ASSERT_EQ(imported.exit_code, 0) << imported.err;
    const auto expected = nlohmann::json::parse(imported.err);
    SCOPED_TRACE(cpu + " " + function.name);
    EXPECT_EQ(ours["samples"], function.samples);
    expect_same_values(ours, expected, function.name != "cold");
  }
  // The 5% rule: Backend_Bound is over its threshold in every function, but
  // flagged only where the function has 5% of the clockticks.
  auto backend = [](const nlohmann::json& report) {
    for (const auto& node : report["nodes"]) {
      if (node["name"] == "Backend_Bound") return node;
    }
    return nlohmann::json();
  };
  const auto& hot = function_object(objects, "hot");
  const auto& cold = function_object(objects, "cold");
  EXPECT_DOUBLE_EQ(hot["share"].get<double>(), 0.051);
  EXPECT_DOUBLE_EQ(cold["share"].get<double>(), 0.049);
  EXPECT_GT(backend(cold)["value"].get<double>(), 0.2);
  EXPECT_TRUE(backend(hot)["over_threshold"]);
  EXPECT_FALSE(backend(cold)["over_threshold"]);
  EXPECT_TRUE(cold["bottleneck"].is_null());
  // Unreliable: sparse's values rest on 10 samples.
  const auto& sparse = function_object(objects, "sparse");
  EXPECT_EQ(backend(sparse)["status"], "unreliable");
  EXPECT_EQ(backend(sparse)["samples"], 10);
  EXPECT_EQ(backend(hot)["status"], "ok");
  EXPECT_EQ(backend(hot)["samples"], 40);
  // The locate table names the functions and lines of the bottleneck's events.
  const auto& locate = objects.back()["locate"];
  ASSERT_FALSE(locate.is_null());
  EXPECT_EQ(locate["node"], objects.front()["bottleneck"]);
  EXPECT_EQ(locate["rows"][0]["function"], "big");
  EXPECT_EQ(locate["rows"][0]["file"], "big.c");
  EXPECT_EQ(locate["rows"][0]["line"], 7);
}

INSTANTIATE_TEST_SUITE_P(HaswellAndSkylake, IntelReport, ::testing::Values("hsw", "skl"));

TEST(ReportCli, OnlyHotFunctionsWithoutVerboseAndTheTextNamesSharesAndSamples) {
  TempTree tree;
  const auto group = intel_group("hsw");
  const auto script = tree.write("script.txt", synthetic_perf_script(group, intel_functions(group))).string();
  auto r = run_command(kTopdown + " report --cpu hsw --smt off " + script);
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.err.find("=== [whole program]: 130 samples ===\n"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("=== hot [/usr/bin/app]: 5.1% of CPU_CLK_UNHALTED.THREAD, 40 samples ===\n"), std::string::npos);
  EXPECT_NE(r.err.find("=== sparse [/usr/bin/app]: 10.0% of CPU_CLK_UNHALTED.THREAD, 10 samples ===\n"),
            std::string::npos);
  EXPECT_EQ(r.err.find("=== cold"), std::string::npos) << "under --min-share: shown with -v only";
  EXPECT_NE(r.err.find("64.0%?                <== bottleneck  (10 samples)\n"), std::string::npos)
      << "sparse's Backend_Bound is unreliable";
  EXPECT_NE(r.err.find("? unreliable: rests on fewer than 30 samples"), std::string::npos);
  // Level 1's bottleneck is 1 minus the other nodes: not located (-l 3 finds
  // a node that is, see IntelReport).
  EXPECT_NE(r.err.find("\nBackend_Bound is not located: it is 1 minus other nodes, so their events say where it is "
                       "not, and no sample event of its own was recorded.\n"),
            std::string::npos)
      << r.err;

  auto lower = run_command(kTopdown + " report --cpu hsw --smt off --min-share 4 --json " + script);
  ASSERT_EQ(lower.exit_code, 0) << lower.err;
  EXPECT_EQ(function_order(json_lines(lower.err)),
            (std::vector<std::string>{"[whole program]", "big", "sparse", "hot", "cold"}));
}

TEST(ReportCli, CsvHasFunctionColumnsAndLocationRows) {
  TempTree tree;
  const auto group = intel_group("skl");
  const auto script = tree.write("script.txt", synthetic_perf_script(group, intel_functions(group))).string();
  auto r = run_command(kTopdown + " report --cpu skl --smt off -l 3 --csv " + script);
  ASSERT_EQ(r.exit_code, 0) << r.err;
  std::istringstream in(r.err);
  std::string header;
  std::getline(in, header);
  EXPECT_EQ(header,
            "function,module,share,samples,kind,name,level,parent,vendor_name,value,unit,over_threshold,bottleneck,"
            "counted_share,status,missing_events,node_samples,tree,call_path");
  EXPECT_NE(r.err.find("\nhot,/usr/bin/app,0.051,40,node,Backend_Bound,1,,"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("\nbig,/usr/bin/app,"), std::string::npos);
  EXPECT_NE(r.err.find(",location,big.c:7,,"), std::string::npos);
}

// Faulting = page-faults * 1 us / cpu-clock: a 40%, b 10%, c 80% of their time.
TEST(ReportCli, SortOrdersFunctionsByANodesSlots) {
  TempTree tree;
  std::vector<SyntheticFunction> functions;
  for (const auto& [name, clock, faults] : {std::tuple{"a", 100'000'000ULL, 40'000ULL},
                                            {"b", 600'000'000ULL, 60'000ULL},
                                            {"c", 300'000'000ULL, 240'000ULL}}) {
    SyntheticFunction function;
    function.name = name;
    function.totals = {{"cpu-clock", clock}, {"page-faults", faults}};
    functions.push_back(function);
  }
  const auto script = tree.write("script.txt", synthetic_perf_script({"cpu-clock", "page-faults"}, functions));
  const std::string report = kTopdown + " report --model " + kSampling + " --json " + script.string();
  auto by_share = run_command(report);
  ASSERT_EQ(by_share.exit_code, 0) << by_share.err;
  EXPECT_EQ(function_order(json_lines(by_share.err)), (std::vector<std::string>{"[whole program]", "b", "c", "a"}));
  auto by_faulting = run_command(report + " --sort Faulting");
  ASSERT_EQ(by_faulting.exit_code, 0) << by_faulting.err;
  EXPECT_EQ(function_order(json_lines(by_faulting.err)), (std::vector<std::string>{"[whole program]", "c", "b", "a"}));
  auto unknown = run_command(report + " --sort Frontend_Bound");
  EXPECT_EQ(unknown.exit_code, 125);
  EXPECT_EQ(unknown.err,
            "topdown: --sort Frontend_Bound: not a node of this report; name one it shows (-l or -v for more)\n");
}

TEST(ReportCli, LostSamplesAndACutOffFileAreReported) {
  TempTree tree;
  const auto script = tree.write("script.txt",
                                 "app 7 1.000001: 500 cpu-clock: 401000 main (/usr/bin/app)\n"
                                 "app 7 1.000002: PERF_RECORD_LOST_SAMPLES lost 12\n"
                                 "app 7 1.000003: 500 cpu-clock: 401000 main (/usr/bin/app)\n"
                                 "app 7 1.000004: 5");
  auto r = run_command(kTopdown + " report --model " + kSampling + " " + script.string());
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.err.find("=== [whole program]: 2 samples, 12 lost, file truncated ===\n"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("warning: " + script.string() + ": 12 samples were lost"), std::string::npos);
  EXPECT_NE(r.err.find("warning: " + script.string() + " is truncated"), std::string::npos);
  auto json = run_command(kTopdown + " report --model " + kSampling + " --json " + script.string());
  const auto whole = json_lines(json.err).front();
  EXPECT_EQ(whole["lost_samples"], 12);
  EXPECT_EQ(whole["truncated"], true);
}

// A real perf record of software events, converted with the documented fields.
// One process: perf does not follow children with sampled group reads.
TEST(ReportCli, ReadsARealPerfRecordOfSoftwareEvents) {
  TempTree tree;
  const std::string data = (tree.root() / "perf.data").string();
  auto record = run_command("perf record -q -e '{cpu-clock,page-faults}:S' -c 200000 -o " + data +
                            " -- dd if=/dev/zero of=/dev/null bs=64k count=2000");
  if (record.exit_code != 0) GTEST_SKIP() << "perf record cannot sample here: " << record.err;
  const std::string script = (tree.root() / "script.txt").string();
  auto convert = run_command("sh -c 'perf script -i " + data +
                             " -F comm,tid,pid,time,period,event,ip,sym,dso,srcline > " + script + "'");
  ASSERT_EQ(convert.exit_code, 0) << convert.err;
  auto r = run_command(kTopdown + " report --model " + kSampling + " --json " + script);
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const auto objects = json_lines(r.err);
  const auto& whole = objects.front();
  EXPECT_EQ(whole["clock_event"], "cpu-clock");
  EXPECT_GT(whole["samples"].get<int>(), 10);
  double shares = 0;
  for (const auto& object : objects) {
    if (object.contains("function") && object["function"] != "[whole program]") shares += object["share"].get<double>();
  }
  EXPECT_LE(shares, 1.0 + 1e-9);
}

}  // namespace
}  // namespace topdown::testing
