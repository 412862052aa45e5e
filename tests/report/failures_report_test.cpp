// docs/failures.md, "Counts": an event that never ran, a counter that went
// backwards and a sum that overflowed are n/a with the event named, in every
// format, and no report ever prints a NaN or an infinity.
#include <gtest/gtest.h>

#include <limits>
#include <nlohmann/json.hpp>
#include <regex>

#include "report/report.h"
#include "support/tiny_model.h"

namespace topdown::report {
namespace {

const std::vector<std::string> kNodes{"Busy", "Busy_Memory", "Busy_Core", "Idle", "IPC"};

struct Rendered {
  eval::Evaluation evaluation;
  std::string text;
  nlohmann::json json;
  std::string csv;
};

// The tiny model's counts, with mem_stalls and the extra event
// instructions replaced by `bad`.
Rendered render_with(const counts::Count& bad) {
  static const model::Model model = testing::tiny_model();  // the results point into it
  counts::Sample sample;
  sample.events["cycles"] = {1000, 10, 10};
  sample.events["busy_slots"] = {3000, 10, 10};
  sample.events["idle_slots"] = {1000, 10, 10};
  sample.events["all_stalls"] = {400, 10, 10};
  sample.events["mem_stalls"] = bad;
  sample.events["instructions"] = bad;
  RunInfo run;
  run.model_name = "tiny";
  run.command = {"./app"};
  run.extra_events = {"instructions"};
  Rendered out;
  out.evaluation = eval::evaluate(model, kNodes, sample, {});
  out.text = render_text(out.evaluation, sample, run, {true, false});
  out.json = nlohmann::json::parse(render_json(out.evaluation, sample, run));
  out.csv = render_csv(out.evaluation, sample, run);
  return out;
}

const nlohmann::json& json_node(const nlohmann::json& report, const std::string& name) {
  for (const auto& node : report["nodes"]) {
    if (node["name"] == name) return node;
  }
  static const nlohmann::json none;
  return none;
}

// "nan" or "inf" as a word, in any case ("Info metric" does not count).
bool prints_nan_or_inf(const std::string& text) {
  static const std::regex kNotANumber(R"((^|[^A-Za-z])(nan|inf)([^A-Za-z]|$))", std::regex::icase);
  return std::regex_search(text, kNotANumber);
}

void expect_na_naming_mem_stalls(const Rendered& r) {
  const eval::NodeResult* memory = r.evaluation.find("Busy_Memory");
  ASSERT_NE(memory, nullptr);
  EXPECT_FALSE(memory->value.has_value());
  EXPECT_EQ(memory->missing_events, std::vector<std::string>{"mem_stalls"});
  EXPECT_FALSE(r.evaluation.find("Busy_Core")->value.has_value());  // computed from Busy_Memory
  EXPECT_DOUBLE_EQ(*r.evaluation.find("Busy")->value, 0.75);        // the rest is still computed
  EXPECT_FALSE(r.evaluation.find("IPC")->value.has_value());

  EXPECT_NE(r.text.find("not counted: mem_stalls"), std::string::npos) << r.text;
  EXPECT_NE(r.text.find("  instructions  "), std::string::npos) << r.text;
  const nlohmann::json& node = json_node(r.json, "Busy_Memory");
  EXPECT_TRUE(node["value"].is_null());
  EXPECT_EQ(node["status"], "n/a");
  EXPECT_EQ(node["missing_events"], nlohmann::json::array({"mem_stalls"}));
  EXPECT_NE(r.csv.find("\nnode,Busy_Memory,2,Busy,,,fraction,0,0,"), std::string::npos) << r.csv;
  EXPECT_NE(r.csv.find(",n/a,mem_stalls\n"), std::string::npos) << r.csv;
  EXPECT_NE(r.csv.find("\nevent,instructions,,,,,count,"), std::string::npos) << r.csv;

  for (const std::string& out : {r.text, r.csv, r.json.dump()}) EXPECT_FALSE(prints_nan_or_inf(out)) << out;
}

TEST(FailuresCounts, EventNeverScheduledIsNaAndNamed) {
  // Enabled for 10 ns, never on a counter: nothing to scale from.
  const Rendered r = render_with({600, 10, 0});
  expect_na_naming_mem_stalls(r);
  EXPECT_TRUE(r.evaluation.find("Busy_Memory")->unreliable);
  EXPECT_NE(r.text.find("instructions                 n/a"), std::string::npos) << r.text;
}

TEST(FailuresCounts, CounterThatWentBackwardsIsNaNamedAndWarned) {
  // An interval's delta when the second read is below the first.
  const Rendered r = render_with({-50, 10, 10});
  expect_na_naming_mem_stalls(r);
  EXPECT_NE(r.text.find("warning: event mem_stalls has the negative count -50 (the counter went backwards between "
                        "two reads); values that use it are n/a"),
            std::string::npos)
      << r.text;
}

TEST(FailuresCounts, OverflowedSumIsNaNamedAndWarned) {
  for (double bad : {std::numeric_limits<double>::infinity(), std::numeric_limits<double>::quiet_NaN()}) {
    const Rendered r = render_with({bad, 10, 10});
    expect_na_naming_mem_stalls(r);
    EXPECT_NE(r.text.find("warning: event mem_stalls has a count that is not a finite number (a sum that "
                          "overflowed); values that use it are n/a"),
              std::string::npos)
        << r.text;
    // JSON keeps the raw value as null, never as a bare NaN token.
    for (const auto& event : r.json["events"]) {
      if (event["name"] == "mem_stalls") {
        EXPECT_TRUE(event["value"].is_null());
      }
    }
  }
}

TEST(FailuresCounts, HugeFiniteCountsStayNumbers) {
  const Rendered r = render_with({1e300, 10, 10});
  EXPECT_TRUE(r.evaluation.find("Busy_Memory")->missing_events.empty());
  // 0.75 * 1e300 / 400 is finite, but out of range for a fraction: shown clamped and flagged.
  EXPECT_TRUE(r.evaluation.find("Busy_Memory")->out_of_range);
  EXPECT_FALSE(prints_nan_or_inf(r.text)) << r.text;
  EXPECT_TRUE(prints_nan_or_inf("  Busy  -inf%\n") && prints_nan_or_inf("value,NaN,"));  // the check itself
}

}  // namespace
}  // namespace topdown::report
