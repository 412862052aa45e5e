// topdown report of a hybrid CPU's perf script (groups on cpu_core and on
// cpu_atom, written here): one profile per core type, each with its own
// model. The expected values are computed here from the file's totals: the
// P-core level 1 as each PERF_METRICS field over their sum, the E-core level
// 1 as each TOPDOWN_*.ALL over 5 slots a cycle, and each type's share as
// its cycles over both types' cycles.
#include <gtest/gtest.h>

#include <fmt/format.h>

#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <optional>

#include <linux/perf_event.h>

#include <cstring>

#include "../support/synthetic_samples.h"
#include "../support/temp_tree.h"
#include "function_reports.h"
#include "recording/data_format.h"
#include "run_command.h"

namespace topdown::testing {
namespace {

const std::string kTopdown = TOPDOWN_BIN;

const std::vector<std::string> kPGroup = {"cpu_core/CPU_CLK_UNHALTED.THREAD/", "cpu_core/slots/",
                                          "cpu_core/topdown-retiring/",        "cpu_core/topdown-bad-spec/",
                                          "cpu_core/topdown-fe-bound/",        "cpu_core/topdown-be-bound/",
                                          "cpu_core/INT_MISC.UOP_DROPPING/"};
const std::vector<std::string> kEGroup = {"cpu_atom/CPU_CLK_UNHALTED.CORE/", "cpu_atom/TOPDOWN_FE_BOUND.ALL/",
                                          "cpu_atom/TOPDOWN_BE_BOUND.ALL/", "cpu_atom/TOPDOWN_RETIRING.ALL/"};

// A P-core function: its cycles, 6 slots a cycle split among the fields.
struct PFunction {
  const char* name;
  double cycles, retiring, bad_spec, frontend, backend;  // fractions of the slots
};
constexpr PFunction kCrunch = {"crunch", 3e8, 0.5, 0.1, 0.15, 0.25};
constexpr PFunction kParse = {"parse", 1e8, 0.2, 0.05, 0.45, 0.3};
// The E-core function: its cycles and each TOPDOWN_*.ALL over 5 slots a cycle.
constexpr double kSpinCycles = 2e8, kSpinFrontend = 0.3, kSpinBackend = 0.4, kSpinRetiring = 0.2;

double slots(const PFunction& f) { return 6 * f.cycles; }

SyntheticFunction p_function(const PFunction& f) {
  SyntheticFunction function;
  function.name = f.name;
  function.totals = {{kPGroup[0], static_cast<uint64_t>(f.cycles)},
                     {kPGroup[1], static_cast<uint64_t>(slots(f))},
                     {kPGroup[2], static_cast<uint64_t>(f.retiring * slots(f))},
                     {kPGroup[3], static_cast<uint64_t>(f.bad_spec * slots(f))},
                     {kPGroup[4], static_cast<uint64_t>(f.frontend * slots(f))},
                     {kPGroup[5], static_cast<uint64_t>(f.backend * slots(f))}};
  return function;
}

SyntheticFunction spin() {
  SyntheticFunction function;
  function.name = "spin";
  const double e_slots = 5 * kSpinCycles;
  function.totals = {{kEGroup[0], static_cast<uint64_t>(kSpinCycles)},
                     {kEGroup[1], static_cast<uint64_t>(kSpinFrontend * e_slots)},
                     {kEGroup[2], static_cast<uint64_t>(kSpinBackend * e_slots)},
                     {kEGroup[3], static_cast<uint64_t>(kSpinRetiring * e_slots)}};
  return function;
}

const std::string kScript = synthetic_perf_script(kPGroup, {p_function(kCrunch), p_function(kParse)}) +
                            synthetic_perf_script(kEGroup, {spin()});
constexpr double kPCycles = kCrunch.cycles + kParse.cycles;
constexpr double kPShare = kPCycles / (kPCycles + kSpinCycles);
constexpr double kEShare = kSpinCycles / (kPCycles + kSpinCycles);

std::optional<double> value_of(const nlohmann::json& report, const std::string& name) {
  for (const auto& entry : report.at("nodes")) {
    if (entry["name"] == name && entry["value"].is_number()) return entry["value"].get<double>();
  }
  return std::nullopt;
}

class HybridReport : public ::testing::Test {
 protected:
  CommandResult report(const std::string& args) {
    return run_command(kTopdown + " report " + args + " " + tree_.write("script.txt", kScript).string());
  }

  TempTree tree_;
};

TEST_F(HybridReport, EachCoreTypesFunctionsWithItsOwnModelAndShare) {
  const CommandResult r = report("--cpu adl --json");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const std::vector<nlohmann::json> objects = json_lines(r.err);
  // P-core: whole program, crunch, parse, locate; E-core: whole program, spin, locate.
  ASSERT_EQ(objects.size(), 7u) << r.err;
  const std::vector<std::pair<std::string, std::string>> expected = {
      {"P-core", "[whole program]"}, {"P-core", "crunch"}, {"P-core", "parse"}, {"P-core", ""},
      {"E-core", "[whole program]"}, {"E-core", "spin"},   {"E-core", ""}};
  for (size_t i = 0; i < objects.size(); ++i) {
    SCOPED_TRACE(i);
    EXPECT_EQ(objects[i]["core_type"], expected[i].first);
    EXPECT_EQ(objects[i].value("function", ""), expected[i].second);
    if (!expected[i].second.empty()) {
      const bool p_core = expected[i].first == "P-core";
      EXPECT_EQ(objects[i]["model"]["name"], p_core ? "adl" : "adl_ecore");
      EXPECT_DOUBLE_EQ(objects[i]["core_share"].get<double>(), p_core ? kPShare : kEShare);
    }
  }
  EXPECT_TRUE(objects[3].contains("locate"));

  for (const PFunction& f : {kCrunch, kParse}) {
    SCOPED_TRACE(f.name);
    const nlohmann::json& function = function_object(objects, f.name);
    const double fields = f.retiring + f.bad_spec + f.frontend + f.backend;
    EXPECT_NEAR(*value_of(function, "Frontend_Bound"), f.frontend / fields, 1e-9);
    EXPECT_NEAR(*value_of(function, "Retiring"), f.retiring / fields, 1e-9);
    EXPECT_NEAR(function["share"].get<double>(), f.cycles / kPCycles, 1e-12) << "of the P-cores' cycles";
  }
  // The P-cores' whole program: the fields summed over both functions.
  const double crunch_slots = slots(kCrunch), parse_slots = slots(kParse);
  EXPECT_NEAR(*value_of(objects[0], "Backend_Bound"),
              (kCrunch.backend * crunch_slots + kParse.backend * parse_slots) / (crunch_slots + parse_slots), 1e-9);
  EXPECT_EQ(objects[0]["samples"], 80);

  const nlohmann::json& spin_report = function_object(objects, "spin");
  EXPECT_NEAR(*value_of(spin_report, "Frontend_Bound"), kSpinFrontend, 1e-9);
  EXPECT_NEAR(*value_of(spin_report, "Backend_Bound"), kSpinBackend, 1e-9);
  EXPECT_NEAR(*value_of(spin_report, "Retiring"), kSpinRetiring, 1e-9);
  EXPECT_NEAR(*value_of(spin_report, "Bad_Speculation"), 1 - kSpinFrontend - kSpinBackend - kSpinRetiring, 1e-9);
  EXPECT_DOUBLE_EQ(spin_report["share"].get<double>(), 1.0);
  EXPECT_EQ(objects[4]["samples"], 40);
}

TEST_F(HybridReport, TextHasAHeadingPerCoreTypeAndCsvLeadsWithTheCoreType) {
  const CommandResult text = report("--cpu adl");
  ASSERT_EQ(text.exit_code, 0) << text.err;
  EXPECT_EQ(text.err.find(fmt::format("=== P-core: {:.1f}% of the cycles ===\n=== [whole program]: 80 samples ===\n",
                                      kPShare * 100)),
            0u)
      << text.err;
  const size_t e_cores = text.err.find(
      fmt::format("\n\n=== E-core: {:.1f}% of the cycles ===\n=== [whole program]: 40 samples ===\n", kEShare * 100));
  ASSERT_NE(e_cores, std::string::npos) << text.err;
  EXPECT_LT(text.err.find("=== crunch [/usr/bin/app]"), e_cores);
  EXPECT_GT(text.err.find("=== spin [/usr/bin/app]"), e_cores);
  EXPECT_EQ(text.err.find("=== P-core", 1), std::string::npos) << "one heading per core type";
  EXPECT_EQ(text.err.find("=== E-core", e_cores + 3), std::string::npos) << "one heading per core type";

  const CommandResult csv = report("--cpu adl --csv");
  ASSERT_EQ(csv.exit_code, 0) << csv.err;
  EXPECT_EQ(csv.err.rfind("core_type,core_share,function,module,share,samples,kind,name,", 0), 0u) << csv.err;
  EXPECT_NE(csv.err.find(fmt::format("\nE-core,{},spin,/usr/bin/app,1,40,node,", kEShare)), std::string::npos)
      << csv.err;
  EXPECT_NE(
      csv.err.find(fmt::format("\nP-core,{},crunch,/usr/bin/app,{},40,node,", kPShare, kCrunch.cycles / kPCycles)),
      std::string::npos)
      << csv.err;
}

TEST_F(HybridReport, PprofWritesAProfilePerCoreType) {
  const std::filesystem::path pprof = tree_.root() / "prof.pb.gz";
  const CommandResult r = report("--cpu adl -o /dev/null --pprof " + pprof.string());
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_FALSE(std::filesystem::exists(pprof));
  for (const char* name : {"prof-cpu_core.pb.gz", "prof-cpu_atom.pb.gz"}) {
    std::ifstream in(tree_.root() / name, std::ios::binary);
    ASSERT_TRUE(in) << name;
    char magic[2] = {};
    in.read(magic, 2);
    EXPECT_EQ(static_cast<unsigned char>(magic[0]), 0x1f) << name;
    EXPECT_EQ(static_cast<unsigned char>(magic[1]), 0x8b) << name;
  }
}

TEST_F(HybridReport, HtmlHasASectionPerCoreTypeWithItsFunctionsAndFlameGraph) {
  const std::filesystem::path page = tree_.root() / "page.html";
  const CommandResult html = report("--cpu adl -o /dev/null --html " + page.string());
  ASSERT_EQ(html.exit_code, 0) << html.err;
  const std::string text = slurp(page.string());
  const size_t p_cores =
      text.find(fmt::format(R"(<h2 class="core-type">P-core: {:.1f}% of the cycles</h2>)", kPShare * 100));
  const size_t e_cores =
      text.find(fmt::format(R"(<h2 class="core-type">E-core: {:.1f}% of the cycles</h2>)", kEShare * 100));
  ASSERT_NE(p_cores, std::string::npos) << text.substr(0, 2000);
  ASSERT_NE(e_cores, std::string::npos);
  ASSERT_LT(p_cores, e_cores);
  // Each type's functions in its own section, with its flame graph.
  const std::string p_part = text.substr(p_cores, e_cores - p_cores);
  const std::string e_part = text.substr(e_cores);
  for (const char* function : {"crunch", "parse"}) {
    EXPECT_NE(p_part.find(std::string(">") + function + "<"), std::string::npos) << function;
    EXPECT_EQ(e_part.find(std::string(">") + function + "<"), std::string::npos) << function;
  }
  EXPECT_NE(e_part.find(">spin<"), std::string::npos);
  EXPECT_EQ(p_part.find(">spin<"), std::string::npos);
  EXPECT_NE(p_part.find(R"(<section id="type0-flame">)"), std::string::npos);
  EXPECT_NE(e_part.find(R"(<section id="type1-flame">)"), std::string::npos);
}

TEST_F(HybridReport, TheECoreModelAloneReportsTheECores) {
  const CommandResult r = report("--cpu adl_ecore --json");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const std::vector<nlohmann::json> objects = json_lines(r.err);
  ASSERT_EQ(objects.size(), 3u) << r.err;
  EXPECT_EQ(objects[0]["core_type"], "E-core");
  EXPECT_DOUBLE_EQ(objects[0]["core_share"].get<double>(), 1.0);
  EXPECT_NEAR(*value_of(function_object(objects, "spin"), "Retiring"), kSpinRetiring, 1e-9);
  const std::string warnings = objects[0]["warnings"].dump();
  EXPECT_NE(warnings.find("the samples of cpu_core are left out"), std::string::npos) << warnings;
}

// A data file of record on an Alder Lake: one P-core and one E-core group,
// each opened on one CPU, two samples of each; `totals` are each event's
// running totals at the second sample.
constexpr uint64_t kSampleType =
    PERF_SAMPLE_IDENTIFIER | PERF_SAMPLE_IP | PERF_SAMPLE_TID | PERF_SAMPLE_TIME | PERF_SAMPLE_CPU | PERF_SAMPLE_READ;
constexpr uint64_t kReadFormat =
    PERF_FORMAT_GROUP | PERF_FORMAT_ID | PERF_FORMAT_TOTAL_TIME_ENABLED | PERF_FORMAT_TOTAL_TIME_RUNNING;
const std::vector<std::string> kPEvents = {"CPU_CLK_UNHALTED.THREAD",     "TOPDOWN.SLOTS",
                                           "PERF_METRICS.RETIRING",       "PERF_METRICS.BAD_SPECULATION",
                                           "PERF_METRICS.FRONTEND_BOUND", "PERF_METRICS.BACKEND_BOUND",
                                           "INT_MISC.UOP_DROPPING"};
const std::vector<uint64_t> kPTotals = {4000, 24000, 9000, 3000, 5000, 7000, 0};
const std::vector<std::string> kEEvents = {"CPU_CLK_UNHALTED.CORE", "TOPDOWN_FE_BOUND.ALL", "TOPDOWN_BE_BOUND.ALL",
                                           "TOPDOWN_RETIRING.ALL"};
const std::vector<uint64_t> kETotals = {1000, 1500, 2000, 1000};

template <typename T>
void append(std::string& bytes, const T& value) {
  bytes.append(reinterpret_cast<const char*>(&value), sizeof value);
}

// A sample of the group whose events have `ids`, reading `values`.
std::string sample_record(const std::vector<uint64_t>& ids, const std::vector<uint64_t>& values, uint64_t time,
                          uint32_t cpu) {
  std::string record;
  append(record, perf_event_header{PERF_RECORD_SAMPLE, PERF_RECORD_MISC_USER, 0});
  append(record, ids[0]);
  append(record, uint64_t{0x401000});
  append(record, uint32_t{100});
  append(record, uint32_t{100});
  append(record, time);
  append(record, cpu);
  append(record, uint32_t{0});
  for (const uint64_t word : {uint64_t{ids.size()}, uint64_t{1000}, uint64_t{1000}}) append(record, word);
  for (size_t i = 0; i < ids.size(); ++i) {
    append(record, values[i]);
    append(record, ids[i]);
  }
  const auto size = static_cast<uint16_t>(record.size());
  std::memcpy(record.data() + offsetof(perf_event_header, size), &size, sizeof size);
  return record;
}

std::vector<uint64_t> scaled(const std::vector<uint64_t>& values, uint64_t numerator, uint64_t denominator) {
  std::vector<uint64_t> out;
  for (const uint64_t value : values) out.push_back(value * numerator / denominator);
  return out;
}

std::string hybrid_data_file() {
  recording::FileHeader file;
  recording::Header& header = file.header;
  header.model = "adl";
  header.cpu = "12th Gen Intel(R) Core(TM) i7-12700";
  header.command = "./app";
  header.cpus_online = 16;
  header.core_types = {{"P-core", "cpu_core", "adl"}, {"E-core", "cpu_atom", "adl_ecore"}};
  recording::SampledGroup p_group;
  p_group.events = kPEvents;
  p_group.frequency = 1000;
  p_group.pmu = "cpu_core";
  recording::SampledGroup e_group;
  e_group.events = kEEvents;
  e_group.frequency = 1000;
  e_group.pmu = "cpu_atom";
  header.groups = {p_group, e_group};
  file.sample_type = kSampleType;
  file.read_format = kReadFormat;
  const std::vector<uint64_t> p_ids = {1, 2, 3, 4, 5, 6, 7};
  const std::vector<uint64_t> e_ids = {11, 12, 13, 14};
  file.streams = {{0, p_ids, false}, {1, e_ids, false}};
  std::string bytes = recording::encode_file_start(file);
  bytes += sample_record(p_ids, scaled(kPTotals, 1, 4), 10, 0);
  bytes += sample_record(e_ids, scaled(kETotals, 1, 2), 11, 8);
  bytes += sample_record(p_ids, kPTotals, 12, 0);
  bytes += sample_record(e_ids, kETotals, 13, 8);
  bytes += recording::encode_run_end(0, {{1000, 1000}, {1000, 1000}});
  return bytes;
}

TEST_F(HybridReport, ADataFileOfRecordIsProfiledPerCoreTypeWithTheModelsItNames) {
  const std::filesystem::path data = tree_.write("hybrid.data", hybrid_data_file());
  const CommandResult r = run_command(kTopdown + " report --json -v " + data.string());
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const std::vector<nlohmann::json> objects = json_lines(r.err);
  ASSERT_GE(objects.size(), 4u) << r.err;
  const nlohmann::json& p_cores = objects.front();
  EXPECT_EQ(p_cores["core_type"], "P-core");
  EXPECT_EQ(p_cores["model"]["name"], "adl");
  EXPECT_EQ(p_cores["samples"], 2);
  const double p_cycles = static_cast<double>(kPTotals[0]), e_cycles = static_cast<double>(kETotals[0]);
  EXPECT_DOUBLE_EQ(p_cores["core_share"].get<double>(), p_cycles / (p_cycles + e_cycles));
  const double fields = static_cast<double>(kPTotals[2] + kPTotals[3] + kPTotals[4] + kPTotals[5]);
  EXPECT_NEAR(*value_of(p_cores, "Retiring"), static_cast<double>(kPTotals[2]) / fields, 1e-9);
  EXPECT_NEAR(*value_of(p_cores, "Backend_Bound"), static_cast<double>(kPTotals[5]) / fields, 1e-9);

  const auto e_cores = std::find_if(objects.begin(), objects.end(), [](const nlohmann::json& object) {
    return object.value("core_type", "") == "E-core" && object.value("function", "") == "[whole program]";
  });
  ASSERT_NE(e_cores, objects.end()) << r.err;
  EXPECT_EQ((*e_cores)["model"]["name"], "adl_ecore");
  EXPECT_EQ((*e_cores)["samples"], 2);
  EXPECT_DOUBLE_EQ((*e_cores)["core_share"].get<double>(), e_cycles / (p_cycles + e_cycles));
  const double e_slots = 5 * e_cycles;
  EXPECT_NEAR(*value_of(*e_cores, "Frontend_Bound"), static_cast<double>(kETotals[1]) / e_slots, 1e-9);
  EXPECT_NEAR(*value_of(*e_cores, "Retiring"), static_cast<double>(kETotals[3]) / e_slots, 1e-9);
}

}  // namespace
}  // namespace topdown::testing
