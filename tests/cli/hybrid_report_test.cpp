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

#include "../support/synthetic_samples.h"
#include "../support/temp_tree.h"
#include "function_reports.h"
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
  EXPECT_EQ(text.err.find("P-core", 1), std::string::npos) << "one heading per core type";

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

TEST_F(HybridReport, PprofWritesAProfilePerCoreTypeAndHtmlIsRefused) {
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

  const std::filesystem::path page = tree_.root() / "page.html";
  const CommandResult html = report("--cpu adl --html " + page.string());
  EXPECT_EQ(html.exit_code, 125);
  EXPECT_NE(html.err.find("--html draws one model's trees, and this recording has one per core type"),
            std::string::npos)
      << html.err;
  EXPECT_FALSE(std::filesystem::exists(page));
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

}  // namespace
}  // namespace topdown::testing
