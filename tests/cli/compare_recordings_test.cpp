// topdown compare of recordings, live with the software-event model (no PMU
// needed): the demo's two functions split one way (faults-and-compute:
// fault_pages a quarter of the CPU time) and the other (mostly-faults: three
// quarters). compare of the data files, of their `report --json` and of a mix
// of the two agree, and fault_pages's share is the one that rose.
#include <gtest/gtest.h>

#include <map>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "../support/temp_tree.h"
#include "run_command.h"

namespace topdown::testing {
namespace {

const std::string kTopdown = TOPDOWN_BIN;
const std::string kDemo = TOPDOWN_DEMO_BIN;
const std::string kRecord =
    kTopdown + " record --model " + std::string(TOPDOWN_SOURCE_DIR) + "/tests/data/software.model";

// What the demo says of its functions, run by run: "fault_pages 0.2513 compute_only 0.7487 (...)".
std::vector<double> fault_shares(const std::string& output) {
  std::vector<double> shares;
  for (size_t at = output.find("fault_pages "); at != std::string::npos; at = output.find("fault_pages ", at + 1)) {
    shares.push_back(std::stod(output.substr(at + 12)));
  }
  return shares;
}

// Two recordings of each split (record -r 2: a-1.data, a-2.data), made
// once for the suite.
class CompareRecordings : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    tree_ = new TempTree;
    for (const std::string side : {"a", "b"}) {
      const std::string kernel = side == "a" ? " faults-and-compute" : " mostly-faults";
      // Four slices a run: the shares are the same as with ten, in less time on a busy machine.
      const std::string file = (tree_->root() / (side + ".data")).string();
      const auto recorded = run_command(kRecord + " -r 2 -o " + file + " -- " + kDemo + kernel + " --iterations 4");
      ASSERT_EQ(recorded.exit_code, 0) << recorded.err;
      EXPECT_NE(recorded.err.find("topdown: 2 recordings: " + data(side + "-1") + "," + data(side + "-2") + " ("),
                std::string::npos)
          << recorded.err;
      const std::vector<double> shares = fault_shares(recorded.out);
      ASSERT_EQ(shares.size(), 2u) << recorded.out;
      shares_[side + "1"] = shares[0];
      shares_[side + "2"] = shares[1];
    }
  }
  static void TearDownTestSuite() {
    delete tree_;
    tree_ = nullptr;
  }

  static std::string data(const std::string& name) { return (tree_->root() / (name + ".data")).string(); }

  static CommandResult compare(const std::string& a, const std::string& b, const std::string& options = "--json") {
    return run_command(kTopdown + " compare " + options + " " + a + " " + b);
  }

  static const nlohmann::json* scope_of(const nlohmann::json& comparison, const std::string& part) {
    for (const auto& scope : comparison["scopes"]) {
      if (scope["scope"].get<std::string>().find(part) != std::string::npos) return &scope;
    }
    return nullptr;
  }

  static inline TempTree* tree_ = nullptr;
  static inline std::map<std::string, double> shares_;
};

TEST_F(CompareRecordings, DataFilesCompareFunctionByFunctionAndTheRisingShareIsFlagged) {
  const auto result = compare(data("a-1"), data("b-1"));
  ASSERT_EQ(result.exit_code, 0) << result.err;
  const nlohmann::json comparison = nlohmann::json::parse(result.err);
  const nlohmann::json* faults = scope_of(comparison, "demo::fault_pages");
  const nlohmann::json* compute = scope_of(comparison, "demo::compute_only");
  const nlohmann::json* whole = scope_of(comparison, "[whole program]");
  ASSERT_TRUE(faults && compute && whole) << comparison.dump(1).substr(0, 3000);
  // The demo measures each function's CPU time; the profile finds each
  // share within 5 points of it, so the change within 10.
  const double expected = (shares_["b1"] - shares_["a1"]) * 100;
  EXPECT_GT(expected, 25) << "the demo's two splits are not apart";
  EXPECT_NEAR((*faults)["share"]["change"].get<double>(), expected, 10);
  EXPECT_NEAR((*compute)["share"]["change"].get<double>(), -expected, 10);
  EXPECT_EQ((*faults)["share"]["change_unit"], "points");
  EXPECT_TRUE((*faults)["share"]["moved"].get<bool>());
  EXPECT_FALSE((*whole)["share"]["moved"].get<bool>());
  EXPECT_TRUE((*faults)["share"]["significant"].is_null()) << "one recording a side cannot be judged";
  EXPECT_EQ((*faults)["function"], "topdown::demo::fault_pages(unsigned long)");
  EXPECT_NE((*faults)["module"].get<std::string>().find("topdown-demo"), std::string::npos);
  EXPECT_GE((*faults)["changes"].size(), 2u) << "the function's tree";

  // The text lists the functions whose share moved with the change's sign:
  // fault_pages up (and compute_only down as much), not the whole program.
  const auto text = compare(data("a-1"), data("b-1"), "--no-color");
  ASSERT_EQ(text.exit_code, 0) << text.err;
  const size_t list = text.err.find("Functions whose share of the clockticks moved, biggest first:\n");
  ASSERT_NE(list, std::string::npos) << text.err;
  const std::string listed = text.err.substr(list, text.err.find("\n\n", list) - list);
  EXPECT_NE(listed.find("fault_pages"), std::string::npos) << listed;
  EXPECT_EQ(listed.find("[whole program]"), std::string::npos) << listed;
  const size_t faults_line = listed.find("fault_pages");
  EXPECT_NE(listed.find(" pt", faults_line), std::string::npos);
  EXPECT_NE(listed.substr(faults_line, listed.find('\n', faults_line) - faults_line).find("+"), std::string::npos)
      << listed;
  EXPECT_NE(text.err.find("a side has a single recording"), std::string::npos);
}

TEST_F(CompareRecordings, ReportJsonAndAMixOfBothGiveTheSameComparison) {
  std::map<std::string, std::string> saved;
  for (const std::string name : {"a1", "b1"}) {
    saved[name] = (tree_->root() / (name + ".json")).string();
    const auto reported =
        run_command(kTopdown + " report --json -o " + saved[name] + " " + data(name.substr(0, 1) + "-1"));
    ASSERT_EQ(reported.exit_code, 0) << reported.err;
  }
  const auto of_data = compare(data("a-1"), data("b-1"));
  const auto of_json = compare(saved["a1"], saved["b1"]);
  const auto mixed = compare(saved["a1"], data("b-1"));
  ASSERT_EQ(of_json.exit_code, 0) << of_json.err;
  ASSERT_EQ(mixed.exit_code, 0) << mixed.err;
  const auto scopes = [](const CommandResult& result) { return nlohmann::json::parse(result.err)["scopes"]; };
  EXPECT_EQ(scopes(of_json), scopes(of_data));
  EXPECT_EQ(scopes(mixed), scopes(of_data));
  // CSV: a share row per function, in points.
  const auto csv = compare(saved["a1"], data("b-1"), "--csv");
  ASSERT_EQ(csv.exit_code, 0) << csv.err;
  EXPECT_NE(csv.err.find(",share,share,0,,fraction,"), std::string::npos) << csv.err.substr(0, 600);
}

TEST_F(CompareRecordings, SeveralRecordingsASideAreJudgedByWelch) {
  const auto result = compare(data("a-1") + "," + data("a-2"), data("b-1") + "," + data("b-2"));
  ASSERT_EQ(result.exit_code, 0) << result.err;
  const nlohmann::json comparison = nlohmann::json::parse(result.err);
  const nlohmann::json* faults = scope_of(comparison, "demo::fault_pages");
  ASSERT_NE(faults, nullptr);
  EXPECT_EQ((*faults)["share"]["a_runs"], 2);
  EXPECT_EQ((*faults)["share"]["b_runs"], 2);
  ASSERT_FALSE((*faults)["share"]["p_value"].is_null());
  const double expected = (shares_["b1"] + shares_["b2"] - shares_["a1"] - shares_["a2"]) / 2 * 100;
  EXPECT_NEAR((*faults)["share"]["change"].get<double>(), expected, 10);
  EXPECT_EQ(comparison["a"]["source"], data("a-1") + "," + data("a-2"));
}

TEST_F(CompareRecordings, GatesNameFunctionsAndAPageHasTheDifferentialFlameGraph) {
  const std::string page = (tree_->root() / "compare.html").string();
  // On_CPU is the same in every function of one run: no function's moves 50 points.
  const auto passed =
      compare(data("a-1"), data("b-1"), "-o /dev/null --html " + page + " --fail-if 'fault_pages:On_CPU>+50'");
  EXPECT_EQ(passed.exit_code, 0) << passed.err;
  const std::string html = slurp((tree_->root() / "compare.html").string());
  EXPECT_NE(html.find("<section id=\"diff-flame\">"), std::string::npos);
  EXPECT_NE(html.find("data-name=\"topdown::demo::fault_pages(unsigned long)\""), std::string::npos);
  EXPECT_NE(html.find("<ol class=\"moved-functions\">"), std::string::npos);

  const auto unknown = compare(data("a-1"), data("b-1"), "--fail-if 'no_such_function:On_CPU>+1'");
  EXPECT_EQ(unknown.exit_code, 125);
  EXPECT_NE(unknown.err.find("names the function no_such_function, which the two profiles do not have in common"),
            std::string::npos)
      << unknown.err;
}

TEST(RecordRepeat, RepeatsACommandOnly) {
  const auto refused = run_command(kRecord + " -r 2 -a -o /dev/null");
  EXPECT_EQ(refused.exit_code, 125);
  EXPECT_EQ(refused.err,
            "topdown: -r repeats a command and reports the runs' means; -p, -a, -C and -G count what runs already, "
            "which cannot be rerun: give a command instead\n");
}

}  // namespace
}  // namespace topdown::testing
