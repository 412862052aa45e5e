#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "../support/error_of.h"
#include "common/error.h"
#include "compare/compare.h"
#include "stats/stats.h"

namespace topdown::compare {
namespace {

using nlohmann::json;
using topdown::testing::error_of;

json node(const std::string& name, int level, std::optional<double> value, int runs = 0, double stddev = 0) {
  json j = {{"name", name},
            {"level", level},
            {"parent", level > 1 ? json("Backend_Bound") : json()},
            {"value", value ? json(*value) : json()}};
  if (level > 0) j["area"] = level == 1 ? "BE" : "BE/Mem";
  if (runs > 0) {
    j["runs"] = runs;
    j["stddev"] = stddev;
  }
  return j;
}

// A zen5-like record: Backend_Bound and its child, and IPC.
json record(double backend, double memory, double ipc, int runs = 0, double stddev = 0) {
  json info = node("IPC", 0, ipc, runs, stddev);
  info["unit"] = "instructions/cycle";
  return {{"format", "topdown-1"},
          {"model", {{"name", "zen5"}, {"title", "AMD Zen 5"}}},
          {"nodes", {node("Backend_Bound", 1, backend, runs, stddev), node("Memory_Bound", 2, memory, runs, stddev)}},
          {"info", {info}},
          {"events", json::array({{{"name", "cycles"}, {"value", 1}}})}};
}

SavedReport read(const json& object) { return read_report(object.dump(2), "r.json"); }

const Change& change_of(const Comparison& comparison, const std::string& name) {
  for (const Change& change : comparison.scopes.at(0).changes) {
    if (change.name == name) return change;
  }
  throw std::out_of_range(name);
}

TEST(Compare, SingleRunsChangeInPointsAndPercentWithoutJudgement) {
  const Comparison comparison = compare(read(record(0.30, 0.20, 2.0)), read(record(0.35, 0.18, 1.5)), 0.05);
  const Change& backend = change_of(comparison, "Backend_Bound");
  EXPECT_NEAR(*backend.change, 5.0, 1e-12);  // points
  EXPECT_FALSE(backend.judged());
  EXPECT_NEAR(*change_of(comparison, "IPC").change, -25.0, 1e-12);  // percent of A
  EXPECT_EQ(change_of(comparison, "IPC").level, 0);
  EXPECT_EQ(comparison.a.deepest_level, 2);
  // Each tree node's area, for the page's colours.
  EXPECT_EQ(backend.area, "BE");
  EXPECT_EQ(change_of(comparison, "Memory_Bound").area, "BE/Mem");
  EXPECT_EQ(change_of(comparison, "IPC").area, "");
}

TEST(Compare, ChangeTextRoundsToOneDecimalWithoutANegativeZero) {
  Change points;
  points.level = 1;
  points.change = -0.04;
  EXPECT_EQ(change_text(points), "+0.0 pt");
  points.change = -0.06;
  EXPECT_EQ(change_text(points), "-0.1 pt");
  points.change = 2.26;
  EXPECT_EQ(change_text(points), "+2.3 pt");
  Change percent;
  percent.change = -0.01;
  EXPECT_EQ(change_text(percent), "+0.0%");
  percent.change = -25;
  EXPECT_EQ(change_text(percent), "-25.0%");
  percent.change = std::nullopt;
  EXPECT_EQ(change_text(percent), "n/a");
}

TEST(Compare, RepeatedRunsAreJudgedByWelchsTest) {
  const Comparison comparison =
      compare(read(record(0.30, 0.20, 2.0, 5, 0.005)), read(record(0.32, 0.20, 2.0, 4, 0.008)), 0.05);
  const Change& backend = change_of(comparison, "Backend_Bound");
  ASSERT_TRUE(backend.judged());
  stats::Summary a{5, 0.30, 0.005, std::nullopt};
  stats::Summary b{4, 0.32, 0.008, std::nullopt};
  EXPECT_DOUBLE_EQ(*backend.p_value, stats::welch_test(a, b)->p);
  EXPECT_LT(*backend.p_value, 0.05);
  EXPECT_TRUE(backend.significant);
  EXPECT_FALSE(change_of(comparison, "Memory_Bound").significant);
  EXPECT_EQ(backend.a_runs, 5);
  EXPECT_EQ(backend.b_runs, 4);
  // The same difference at a stricter level is not significant.
  const Comparison strict =
      compare(read(record(0.30, 0.20, 2.0, 5, 0.005)), read(record(0.32, 0.20, 2.0, 4, 0.008)), 0.001);
  EXPECT_FALSE(change_of(strict, "Backend_Bound").significant);
}

TEST(Compare, IntervalsOfAScopeAreItsMeasurements) {
  std::string lines;
  for (const double backend : {0.2, 0.4, 0.3}) {
    json interval = record(backend, 0.1, 1.0);
    interval["time"] = 1.0;
    interval["scope"] = "main";
    lines += interval.dump() + "\n";
  }
  json other = record(0.9, 0.1, 1.0);
  other["scope"] = "helper";
  other["time"] = nullptr;
  lines += other.dump() + "\n";
  const SavedReport report = read_report(lines, "r.json");
  ASSERT_EQ(report.scopes.size(), 2u);
  EXPECT_EQ(report.scopes[0].name, "main");
  EXPECT_TRUE(report.scopes[0].from_intervals);
  EXPECT_DOUBLE_EQ(*report.scopes[0].measures[0].value, 0.3);
  EXPECT_EQ(report.scopes[0].measures[0].runs, 3);
  EXPECT_NEAR(report.scopes[0].measures[0].stddev, 0.1, 1e-15);
  EXPECT_FALSE(report.scopes[1].from_intervals);
  EXPECT_DOUBLE_EQ(*report.scopes[1].measures[0].value, 0.9);
}

TEST(Compare, ScopesAreMatchedByName) {
  auto scoped = [](const std::string& scope, double backend) {
    json r = record(backend, 0.1, 1.0);
    r["scope"] = scope;
    return r.dump() + "\n";
  };
  const Comparison comparison = compare(read_report(scoped("f", 0.2) + scoped("g", 0.3), "a.json"),
                                        read_report(scoped("g", 0.5) + scoped("h", 0.1), "b.json"), 0.05);
  ASSERT_EQ(comparison.scopes.size(), 1u);
  EXPECT_EQ(comparison.scopes[0].scope, "g");
  EXPECT_NEAR(*comparison.scopes[0].changes[0].change, 20, 1e-12);
  EXPECT_EQ(comparison.only_in_a, std::vector<std::string>{"f"});
  EXPECT_EQ(comparison.only_in_b, std::vector<std::string>{"h"});
  EXPECT_NE(error_of([&] {
              compare(read_report(scoped("f", 0.2), "a.json"), read_report(scoped("h", 0.2), "b.json"), 0.05);
            }).find("no scope in common"),
            std::string::npos);
}

TEST(Compare, EachCoreTypeOfAHybridCpuIsAScopeOfItsOwn) {
  auto typed = [](const std::string& core_type, const std::string& scope, double backend) {
    json r = record(backend, 0.1, 1.0);
    r["core_type"] = core_type;
    if (!scope.empty()) r["scope"] = scope;
    return r.dump() + "\n";
  };
  const Comparison comparison = compare(
      read_report(typed("P-core", "", 0.2) + typed("E-core", "", 0.4) + typed("E-core", "CPU8", 0.3), "a.json"),
      read_report(typed("P-core", "", 0.3) + typed("E-core", "", 0.2) + typed("E-core", "CPU8", 0.3), "b.json"), 0.05);
  ASSERT_EQ(comparison.scopes.size(), 3u);
  EXPECT_EQ(comparison.scopes[0].scope, "P-core");
  EXPECT_NEAR(*comparison.scopes[0].changes[0].change, 10, 1e-12);
  EXPECT_EQ(comparison.scopes[1].scope, "E-core");
  EXPECT_NEAR(*comparison.scopes[1].changes[0].change, -20, 1e-12);
  EXPECT_EQ(comparison.scopes[2].scope, "E-core CPU8");
  EXPECT_NEAR(*comparison.scopes[2].changes[0].change, 0, 1e-12);
}

TEST(Compare, BadInputIsOneClearError) {
  json other_model = record(0.3, 0.2, 1.0);
  other_model["model"]["name"] = "skl";
  EXPECT_EQ(error_of([&] { compare(read(record(0.3, 0.2, 1.0)), read_report(other_model.dump(), "b.json"), 0.05); }),
            "r.json is a report of model zen5 and b.json of model skl: compare reports of one model");
  json level_one = record(0.3, 0.2, 1.0);
  level_one["nodes"].erase(1);
  EXPECT_EQ(error_of([&] { compare(read(record(0.3, 0.2, 1.0)), read_report(level_one.dump(), "b.json"), 0.05); }),
            "r.json goes to level 2 and b.json to level 1: make both with the same -l");
  const std::string whole = record(0.3, 0.2, 1.0).dump(2);
  EXPECT_EQ(error_of([&] { read_report(whole.substr(0, whole.size() / 2), "cut.json"); }),
            "cut.json:1: not complete JSON: the file is cut off, or not a topdown --json report");
  EXPECT_NE(error_of([&] {
              read_report(R"({"version": 2, "benchmarks": []})", "other.json");
            }).find("other.json:1: not a topdown report"),
            std::string::npos);
  EXPECT_EQ(error_of([&] { read_report(" \n", "empty.json"); }),
            "empty.json is empty: expected a topdown --json report");
}

TEST(Compare, ValuesNoReportHoldsAreRefusedNamingTheLineAndField) {
  const std::string edited = "; was the report edited? Make it again with --json";
  json huge = record(0.3, 0.2, 1.0);
  huge["nodes"][0]["value"] = 1e308;
  EXPECT_EQ(error_of([&] { read(huge); }),
            "r.json:1: \"value\" of node Backend_Bound: 1e+308 is not a share of the "
            "pipeline slots (compare takes -1 to 2)" +
                edited);
  json negative = record(0.3, -3.0, 1.0);
  EXPECT_EQ(error_of([&] { read(negative); }),
            "r.json:1: \"value\" of node Memory_Bound: -3 is not a share of the "
            "pipeline slots (compare takes -1 to 2)" +
                edited);
  EXPECT_EQ(error_of([&] { read(record(0.3, 0.2, -1e308)); }),
            "r.json:1: \"value\" of Info metric IPC: -1e+308 is not a value any Info metric reaches (compare takes "
            "-1e+100 to 1e+100)" +
                edited);
  json negative_spread = record(0.3, 0.2, 1.0, 3, 0.1);
  negative_spread["nodes"][0]["stddev"] = -0.1;
  EXPECT_EQ(error_of([&] { read(negative_spread); }),
            "r.json:1: \"stddev\" of node Backend_Bound: -0.1 is not a standard deviation of a share of the pipeline "
            "slots (compare takes 0 to 3)" +
                edited);
  // A value of a wrong type is said to be so, not a cut-off file; the second
  // record of a report of records is line 2.
  json text_value = record(0.3, 0.2, 1.0);
  text_value["nodes"][1]["value"] = "0.2";
  EXPECT_EQ(error_of([&] { read_report(record(0.3, 0.2, 1.0).dump() + "\n" + text_value.dump() + "\n", "r.json"); }),
            "r.json:2: \"value\" of node Memory_Bound: expected a number, found a string" + edited);
  json text_level = record(0.3, 0.2, 1.0);
  text_level["nodes"][0]["level"] = "1";
  EXPECT_EQ(error_of([&] { read(text_level); }),
            "r.json:1: \"level\" of node number 1: expected a number, found a string" + edited);
  EXPECT_EQ(
      error_of([&] { read_report(R"({"format": "topdown-1", "nodes": [{"name": "A", "value": 1e999}]})", "r.json"); }),
      "r.json:1: \"value\" of node A: expected a number, found a number beyond the range of a double" + edited);
  EXPECT_EQ(error_of([&] { read_report(R"({"format": "topdown-1", "nodes": {"name": "A"}})", "r.json"); }),
            "r.json:1: \"nodes\": expected '[', found an object" + edited);
  // The largest values a report holds still give finite changes: from an
  // Info value next to 0 the percent change is n/a, not infinite.
  const Comparison extreme = compare(read(record(-1, 2, 1e-300)), read(record(2, -1, 1e100)), 0.05);
  EXPECT_NEAR(*change_of(extreme, "Backend_Bound").change, 300, 1e-9);
  EXPECT_FALSE(change_of(extreme, "IPC").change.has_value());
}

// A report's model and scope names are the file's text: none of their
// bytes may drive the terminal.
TEST(Compare, ControlBytesOfAReportAreEscapedInText) {
  json a = record(0.30, 0.2, 1.0);
  a["model"]["name"] = "zen5\x1b[2J";
  a["scope"] = "CPU\x1b[31m";
  json b = a;
  b["nodes"][0]["value"] = 0.35;
  const Comparison comparison = compare(read(a), read(b), 0.05);
  const std::string text = render_text(comparison, check_gates(comparison, {parse_gate("Backend_Bound>+2")}), {});
  EXPECT_EQ(text.find('\x1b'), std::string::npos) << text;
  EXPECT_NE(text.find("zen5\\x1b[2J"), std::string::npos) << text;
  EXPECT_NE(text.find("FAILED in CPU\\x1b[31m"), std::string::npos) << text;
}

// An unknown duration is null in a report (see report's tests): compare reads it.
TEST(Compare, ReadsAReportWhoseDurationIsUnknown) {
  json unknown = record(0.3, 0.2, 1.0);
  unknown["elapsed_s"] = nullptr;
  const Comparison comparison = compare(read(unknown), read(record(0.35, 0.2, 1.0)), 0.05);
  EXPECT_NEAR(*change_of(comparison, "Backend_Bound").change, 5, 1e-12);
}

// A report of one TMA version against one of another: refused, saying how
// to pin one; a report without the field (written before versions) is
// compared as before.
TEST(Compare, RefusesReportsOfDifferentTmaVersions) {
  const auto of_version = [](const char* version) {
    json report = record(0.3, 0.2, 1.0);
    report["model"]["name"] = "spr";
    report["model"]["tma_version"] = version;
    return report;
  };
  EXPECT_EQ(read(of_version("5.2")).tma_version, "5.2");
  EXPECT_EQ(error_of([&] {
              compare(read_report(of_version("5.01").dump(), "old.json"),
                      read_report(of_version("5.2").dump(), "new.json"), 0.05);
            }),
            "old.json is a report of TMA 5.01 and new.json of TMA 5.2: the versions place nodes differently; "
            "measure both with one version, pinned with --cpu spr@5.01 (or spr@5.2)");
  EXPECT_EQ(compare(read(of_version("5.2")), read(of_version("5.2")), 0.05).scopes.size(), 1u);
  json unversioned = of_version("5.2");
  unversioned["model"].erase("tma_version");
  EXPECT_EQ(read(unversioned).tma_version, "");
  EXPECT_EQ(compare(read(unversioned), read(of_version("5.01")), 0.05).scopes.size(), 1u);
  json null_version = of_version("5.2");
  null_version["model"]["tma_version"] = nullptr;  // a model without a version (Arm, AMD)
  EXPECT_EQ(read(null_version).tma_version, "");
}

TEST(Compare, GatesTripOnSignificantMovesOrOnTheLimitAloneForSingleRuns) {
  EXPECT_EQ(parse_gate("Backend_Bound>+2").limit, 2);
  EXPECT_TRUE(parse_gate("Backend_Bound>+2").above);
  EXPECT_EQ(parse_gate("Retiring<-1").limit, -1);
  EXPECT_FALSE(parse_gate("Retiring<-1").above);
  EXPECT_NE(error_of([] { parse_gate("Retiring=-1"); }).find("expected NODE>+LIMIT"), std::string::npos);
  EXPECT_NE(error_of([] { parse_gate(">2"); }).find("expected NODE>+LIMIT"), std::string::npos);
  EXPECT_NE(error_of([] { parse_gate("Retiring>2x"); }).find("expected NODE>+LIMIT"), std::string::npos);

  const std::vector<Gate> gates = {parse_gate("Backend_Bound>+2"), parse_gate("IPC<-10")};
  // Single runs: 5 points up and IPC down 25%: both past their limits.
  const Comparison single = compare(read(record(0.30, 0.20, 2.0)), read(record(0.35, 0.18, 1.5)), 0.05);
  for (const GateVerdict& verdict : check_gates(single, gates)) EXPECT_EQ(verdict.tripped_in.size(), 1u);
  // Repeated runs: 2 points past the limit but lost in the noise.
  const Comparison noisy = compare(read(record(0.30, 0.2, 2.0, 3, 0.05)), read(record(0.33, 0.2, 2.0, 3, 0.05)), 0.05);
  EXPECT_TRUE(check_gates(noisy, {gates[0]})[0].tripped_in.empty());
  const Comparison clear =
      compare(read(record(0.30, 0.2, 2.0, 5, 0.001)), read(record(0.33, 0.2, 2.0, 5, 0.001)), 0.05);
  EXPECT_EQ(check_gates(clear, {gates[0]})[0].tripped_in.size(), 1u);
  EXPECT_TRUE(check_gates(clear, {parse_gate("Backend_Bound>+5")})[0].tripped_in.empty());
  EXPECT_NE(error_of([&] { check_gates(clear, {parse_gate("Nope>1")}); }).find("names Nope, which neither report has"),
            std::string::npos);
}

// Tiny spreads give tiny p-values to changes too small to matter: a change
// is significant only from --min-change on (points, or percent for Info).
TEST(Compare, ChangesUnderTheFloorAreNotSignificantHoweverSmallP) {
  const SavedReport a = read(record(0.300, 0.20, 2.00, 5, 0.0005));
  const SavedReport b = read(record(0.307, 0.20, 2.01, 5, 0.0005));
  const Comparison floored = compare(a, b, 0.05);
  EXPECT_EQ(floored.min_change, kDefaultMinChange);
  const Change& backend = change_of(floored, "Backend_Bound");
  EXPECT_NEAR(*backend.change, 0.7, 1e-9);
  ASSERT_TRUE(backend.judged());
  EXPECT_LT(*backend.p_value, 1e-6);
  EXPECT_FALSE(backend.significant);
  // IPC +0.5% of A: p < 1e-6, still under 1%.
  EXPECT_NEAR(*change_of(floored, "IPC").change, 0.5, 1e-9);
  EXPECT_LT(*change_of(floored, "IPC").p_value, 1e-6);
  EXPECT_FALSE(change_of(floored, "IPC").significant);
  EXPECT_TRUE(significant_moves(floored).empty());

  // At the floor and above it, the t-test decides.
  const Comparison at_floor = compare(a, b, 0.05, 0.7 - 1e-9);
  EXPECT_TRUE(change_of(at_floor, "Backend_Bound").significant);
  EXPECT_FALSE(change_of(at_floor, "IPC").significant);
  const Comparison no_floor = compare(a, b, 0.05, 0);
  EXPECT_TRUE(change_of(no_floor, "IPC").significant);
  EXPECT_FALSE(change_of(no_floor, "Memory_Bound").significant) << "no change is never significant";
  const Comparison above =
      compare(read(record(0.30, 0.20, 2.0, 5, 0.0005)), read(record(0.32, 0.20, 2.0, 5, 0.0005)), 0.05, 1.5);
  EXPECT_TRUE(change_of(above, "Backend_Bound").significant);
  // The floor does not make noise significant.
  const Comparison noisy =
      compare(read(record(0.30, 0.20, 2.0, 3, 0.05)), read(record(0.33, 0.20, 2.0, 3, 0.05)), 0.05, 0.5);
  EXPECT_FALSE(change_of(noisy, "Backend_Bound").significant);
}

TEST(Compare, GatesHonourTheFloor) {
  const Gate up = parse_gate("Backend_Bound>+0.5");
  // Repeated runs: 0.7 points with p < 1e-6 is past the gate's limit but under the floor.
  const Comparison repeated =
      compare(read(record(0.300, 0.2, 2.0, 5, 0.0005)), read(record(0.307, 0.2, 2.0, 5, 0.0005)), 0.05);
  EXPECT_TRUE(check_gates(repeated, {up})[0].tripped_in.empty());
  const Comparison repeated_low_floor =
      compare(read(record(0.300, 0.2, 2.0, 5, 0.0005)), read(record(0.307, 0.2, 2.0, 5, 0.0005)), 0.05, 0.5);
  EXPECT_EQ(check_gates(repeated_low_floor, {up})[0].tripped_in, std::vector<std::string>{""});
  // Single runs cannot be judged: the limit and the floor decide.
  const Comparison single = compare(read(record(0.300, 0.2, 2.0)), read(record(0.307, 0.2, 2.0)), 0.05);
  EXPECT_TRUE(check_gates(single, {up})[0].tripped_in.empty());
  const Comparison single_low_floor = compare(read(record(0.300, 0.2, 2.0)), read(record(0.307, 0.2, 2.0)), 0.05, 0.69);
  EXPECT_EQ(check_gates(single_low_floor, {up})[0].tripped_in.size(), 1u);
}

TEST(Compare, CsvAndJsonLayouts) {
  const Comparison comparison =
      compare(read(record(0.30, 0.20, 2.0, 5, 0.001)), read(record(0.33, 0.20, 2.0, 5, 0.001)), 0.05);
  const std::string csv = render_csv(comparison);
  EXPECT_EQ(csv.substr(0, csv.find('\n')),
            "scope,kind,name,level,parent,unit,a,b,change,change_unit,a_runs,b_runs,p_value,significant");
  EXPECT_NE(csv.find("\n,node,Backend_Bound,1,,fraction,0.3,0.33,"), std::string::npos) << csv;
  const json out = json::parse(render_json(comparison, check_gates(comparison, {parse_gate("Backend_Bound>+2")})));
  EXPECT_EQ(out["format"], "topdown-compare-1");
  EXPECT_EQ(out["min_change"], kDefaultMinChange);
  const json& backend = out["scopes"][0]["changes"][0];
  EXPECT_EQ(backend["name"], "Backend_Bound");
  EXPECT_NEAR(backend["change"].get<double>(), 3, 1e-9);
  EXPECT_EQ(backend["change_unit"], "points");
  EXPECT_EQ(backend["significant"], true);
  EXPECT_EQ(out["gates"][0]["tripped"], true);
  const std::string text = render_text(comparison, {}, {});
  EXPECT_NE(text.find("Welch's t-test at alpha 0.05, significant from a change of 1 point (Info metrics: 1%)\n"),
            std::string::npos)
      << text;
  EXPECT_NE(text.find("Significant changes, biggest first:\n  Backend_Bound"), std::string::npos) << text;
}

}  // namespace
}  // namespace topdown::compare
