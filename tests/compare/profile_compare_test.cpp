// compare of profiles (topdown report --json, or recordings reported
// first): functions as scopes with their share of the clockticks, the
// report's locate record skipped, several recordings of a side as repeated
// runs, gates per function.
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

json node(const std::string& name, double value) {
  return {{"name", name}, {"level", 1}, {"parent", nullptr}, {"value", value}, {"area", "BE"}};
}

// One function's record as topdown report --json writes it (the keys
// compare reads, and a few it skips).
json function_record(const std::string& function, double share, double backend) {
  const bool whole = function == "[whole program]";
  return {{"format", "topdown-1"}, {"model", {{"name", "zen5"}, {"title", "AMD Zen 5"}}},
          {"time", nullptr},       {"scope", whole ? function : function + " [/usr/bin/app]"},
          {"function", function},  {"module", whole ? "" : "/usr/bin/app"},
          {"share", share},        {"samples", 400},
          {"tree", "self"},        {"nodes", {node("Backend_Bound", backend), node("Frontend_Bound", 1 - backend)}},
          {"info", json::array()}};
}

// report's locate record: not a scope.
const char* const kLocate =
    R"({"format":"topdown-1","locate":{"node":"Backend_Bound","events":["cycles"],"sample_events":false,)"
    R"("rows":[{"function":"parse_row","module":"/usr/bin/app","file":null,"line":null,"share":0.7,)"
    R"("weight":7.0,"samples":70}]}})";

// A profile of parse_row and hash at `parse_share` and the rest, each Backend_Bound as given.
std::string profile(double parse_share, double parse_backend, double hash_backend = 0.2) {
  return function_record("[whole program]", 1, 0.5).dump() + "\n" +
         function_record("app::parse_row(char const*)", parse_share, parse_backend).dump() + "\n" +
         function_record("hash", 1 - parse_share, hash_backend).dump() + "\n" + kLocate + "\n";
}

const ScopeChanges& scope_of(const Comparison& comparison, const std::string& function) {
  for (const ScopeChanges& scope : comparison.scopes) {
    if (names_function(scope.function, function)) return scope;
  }
  throw std::out_of_range(function);
}

TEST(ProfileCompare, FunctionsAreScopesWithTheirShareAndTheLocateRecordIsSkipped) {
  const SavedReport report = read_report(profile(0.6, 0.7), "a.json");
  ASSERT_EQ(report.scopes.size(), 3u);
  EXPECT_EQ(report.scopes[1].name, "app::parse_row(char const*) [/usr/bin/app]");
  EXPECT_EQ(report.scopes[1].function, "app::parse_row(char const*)");
  EXPECT_EQ(report.scopes[1].module, "/usr/bin/app");
  ASSERT_TRUE(report.scopes[1].share);
  EXPECT_DOUBLE_EQ(*report.scopes[1].share->value, 0.6);
  EXPECT_TRUE(report.scopes[1].share->is_fraction());
  EXPECT_DOUBLE_EQ(*report.scopes[2].share->value, 0.4);
  EXPECT_EQ(report.scopes[1].measures.size(), 2u);
  // A report of stat has no function and no share.
  const json stat = {{"format", "topdown-1"}, {"model", {{"name", "zen5"}}}, {"nodes", {node("Backend_Bound", 0.5)}}};
  const SavedReport counted = read_report(stat.dump(), "s.json");
  EXPECT_TRUE(counted.scopes[0].function.empty());
  EXPECT_FALSE(counted.scopes[0].share);
}

TEST(ProfileCompare, EachFunctionGetsItsSharesAndTheMovedOnesAreListedBiggestFirst) {
  const Comparison comparison =
      compare(read_report(profile(0.6, 0.7), "a.json"), read_report(profile(0.2, 0.72), "b.json"), 0.05);
  const ScopeChanges& parse = scope_of(comparison, "parse_row");
  ASSERT_TRUE(parse.share);
  EXPECT_TRUE(parse.share->in_points());
  EXPECT_NEAR(*parse.share->change, -40, 1e-9);  // points of the clockticks
  EXPECT_FALSE(parse.share->judged()) << "one recording a side";
  EXPECT_TRUE(parse.share->moved(comparison.min_change));
  EXPECT_NEAR(*parse.changes[0].change, 2, 1e-9);  // Backend_Bound in the function, points
  const ScopeChanges& whole = scope_of(comparison, "[whole program]");
  EXPECT_NEAR(*whole.share->change, 0, 1e-12);
  const std::vector<const ScopeChanges*> moved = moved_functions(comparison);
  ASSERT_EQ(moved.size(), 2u);  // parse_row down 40, hash up 40: the whole program stays
  EXPECT_EQ(moved[0]->function, "app::parse_row(char const*)");
  EXPECT_EQ(moved[1]->function, "hash");
  EXPECT_NEAR(*moved[1]->share->change, 40, 1e-9);

  const std::string text = render_text(comparison, {}, {});
  EXPECT_NE(text.find("Functions whose share of the clockticks moved, biggest first:\n"
                      "  app::parse_row(char const*) [/usr/bin/app]   60.0% ->  20.0%    -40.0 pt\n"
                      "  hash [/usr/bin/app]                          40.0% ->  80.0%    +40.0 pt\n"),
            std::string::npos)
      << text;
  EXPECT_NE(text.find("=== hash [/usr/bin/app] === 40.0% -> 80.0% of the clockticks, +40.0 pt\n"), std::string::npos)
      << text;
  EXPECT_NE(text.find("a side has a single recording"), std::string::npos) << text;

  const std::string csv = render_csv(comparison);
  EXPECT_NE(csv.find("\nhash [/usr/bin/app],share,share,0,,fraction,0.4,0.8,40,points,1,1,,\n"), std::string::npos)
      << csv;
  const json out = json::parse(render_json(comparison, {}));
  const json& hash = out["scopes"][2];
  EXPECT_EQ(hash["function"], "hash");
  EXPECT_EQ(hash["module"], "/usr/bin/app");
  EXPECT_EQ(hash["share"]["kind"], "share");
  EXPECT_EQ(hash["share"]["change_unit"], "points");
  EXPECT_NEAR(hash["share"]["change"].get<double>(), 40, 1e-9);
  EXPECT_EQ(hash["share"]["moved"], true);
  EXPECT_EQ(out["scopes"][0]["share"]["moved"], false);
}

TEST(ProfileCompare, AFunctionOnlyOneSideHasIsListedWithItsShare) {
  const std::string a = profile(0.6, 0.7) + function_record("cold", 0.08, 0.1).dump() + "\n";
  const Comparison comparison = compare(read_report(a, "a.json"), read_report(profile(0.6, 0.7), "b.json"), 0.05);
  EXPECT_EQ(comparison.only_in_a, std::vector<std::string>{"cold [/usr/bin/app]"});
  EXPECT_NE(render_text(comparison, {}, {}).find("only in A: cold [/usr/bin/app] (8.0% of the clockticks)\n"),
            std::string::npos);
  EXPECT_NE(render_text(comparison, {}, {}).find("No function's share of the clockticks moved (by 1 point"),
            std::string::npos);
}

TEST(ProfileCompare, GatesNameAFunctionByItsWholeNameOrItsShortName) {
  EXPECT_TRUE(names_function("app::parse_row(char const*)", "parse_row"));
  EXPECT_TRUE(names_function("app::parse_row(char const*)", "app::parse_row"));
  EXPECT_TRUE(names_function("app::parse_row(char const*)", "app::parse_row(char const*)"));
  EXPECT_FALSE(names_function("app::parse_row(char const*)", "row"));
  EXPECT_FALSE(names_function("hash", "parse_row"));

  const Gate gate = parse_gate("app::parse_row:Backend_Bound>+2");
  EXPECT_EQ(gate.function, "app::parse_row");
  EXPECT_EQ(gate.name, "Backend_Bound");
  EXPECT_EQ(gate.limit, 2);
  EXPECT_TRUE(parse_gate("Backend_Bound>+2").function.empty());
  EXPECT_NE(error_of([] { parse_gate(":Backend_Bound>+2"); }).find("FUNCTION:NODE>+LIMIT"), std::string::npos);

  // parse_row's Backend_Bound rises 5 points, hash's 30: each gate sees its own function.
  const Comparison comparison =
      compare(read_report(profile(0.6, 0.7, 0.2), "a.json"), read_report(profile(0.6, 0.75, 0.5), "b.json"), 0.05);
  const auto verdicts =
      check_gates(comparison, {parse_gate("parse_row:Backend_Bound>+2"), parse_gate("parse_row:Backend_Bound>+10"),
                               parse_gate("hash:Backend_Bound>+10"), parse_gate("Backend_Bound>+10")});
  EXPECT_EQ(verdicts[0].tripped_in, std::vector<std::string>{"app::parse_row(char const*) [/usr/bin/app]"});
  EXPECT_TRUE(verdicts[1].tripped_in.empty());
  EXPECT_EQ(verdicts[2].tripped_in, std::vector<std::string>{"hash [/usr/bin/app]"});
  EXPECT_EQ(verdicts[3].tripped_in, std::vector<std::string>{"hash [/usr/bin/app]"});
  EXPECT_NE(error_of([&] { check_gates(comparison, {parse_gate("main:Backend_Bound>+2")}); })
                .find("--fail-if 'main:Backend_Bound>+2' names the function main, which the two profiles do not "
                      "have in common"),
            std::string::npos);
}

TEST(ProfileCompare, SeveralRecordingsASideAreRepeatedRunsJudgedByWelch) {
  std::vector<SavedReport> a_runs;
  std::vector<SavedReport> b_runs;
  const std::vector<double> a_shares = {0.60, 0.62, 0.58};
  const std::vector<double> b_shares = {0.40, 0.43, 0.41};
  for (size_t i = 0; i < 3; ++i) {
    a_runs.push_back(read_report(profile(a_shares[i], 0.7 + 0.01 * static_cast<double>(i)), "a" + std::to_string(i)));
    b_runs.push_back(read_report(profile(b_shares[i], 0.7 + 0.01 * static_cast<double>(i)), "b" + std::to_string(i)));
  }
  // The last B run has a function the others lack: its one value.
  b_runs.back() = read_report(profile(b_shares[2], 0.72) + function_record("cold", 0.07, 0.1).dump(), "b2");
  const SavedReport a = combine_runs(a_runs);
  const SavedReport b = combine_runs(b_runs);
  EXPECT_EQ(a.label, "a0,a1,a2");
  const Scope& parse = a.scopes[1];
  EXPECT_EQ(parse.function, "app::parse_row(char const*)");
  EXPECT_EQ(parse.share->runs, 3);
  EXPECT_NEAR(*parse.share->value, 0.60, 1e-12);
  EXPECT_NEAR(parse.share->stddev, 0.02, 1e-12);
  EXPECT_NEAR(*parse.measures[0].value, 0.71, 1e-12);
  EXPECT_EQ(b.scopes.back().name, "cold [/usr/bin/app]");
  EXPECT_EQ(b.scopes.back().share->runs, 1);

  const Comparison comparison = compare(a, b, 0.05);
  const ScopeChanges& changed = scope_of(comparison, "parse_row");
  ASSERT_TRUE(changed.share->judged());
  const auto expected =
      stats::welch_test(stats::summarize(a_shares), stats::summarize(b_shares));  // the same test as stat -r
  EXPECT_DOUBLE_EQ(*changed.share->p_value, expected->p);
  EXPECT_TRUE(changed.share->significant);
  EXPECT_FALSE(changed.changes[0].significant) << "Backend_Bound did not move";
  EXPECT_EQ(moved_functions(comparison).front()->function, "app::parse_row(char const*)");
}

TEST(ProfileCompare, ASideOfSeveralFilesTakesSingleRunsOfOneModel) {
  std::string repeated = function_record("[whole program]", 1, 0.5).dump();
  repeated.insert(repeated.find("\"value\""), "\"runs\":3,\"stddev\":0.01,");
  EXPECT_EQ(error_of([&] {
              combine_runs({read_report(profile(0.6, 0.7), "a1.json"), read_report(repeated, "r.json")});
            }),
            "r.json holds the means of repeated runs already: give it alone on its side, or give one file per run "
            "(A1,A2 B1,B2)");
  json other = function_record("[whole program]", 1, 0.5);
  other["model"]["name"] = "skl";
  EXPECT_NE(error_of([&] {
              combine_runs({read_report(profile(0.6, 0.7), "a1.json"), read_report(other.dump(), "a2.json")});
            }).find("a1.json and a2.json are runs of one side but of model zen5 and skl"),
            std::string::npos);
}

}  // namespace
}  // namespace topdown::compare
