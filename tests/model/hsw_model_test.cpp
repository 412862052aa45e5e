// The shipped Intel Haswell model (TMA 4.5): its tree against the headings
// of the TMA specification it was written from, its constants, and a few
// thresholds, including the HighIPC and over(NODE) forms.
#include <gtest/gtest.h>

#include <fstream>
#include <map>
#include <regex>

#include "cpu_ids.h"
#include "intel_model_support.h"
#include "model/model.h"

namespace topdown::model {
namespace {

const std::filesystem::path kSeeds = std::filesystem::path(TOPDOWN_SOURCE_DIR) / ".." / "shared" / "seeds";

struct Heading {
  std::string name;
  int level = 0;
  std::string parent;  // the nearest heading one level up; empty on level 1
};

// Every "## 2.1 <a id=...>NAME</a>" heading of the specification, in order.
// Section 5 lists the Info metrics as Metric_NAME at level 2.
std::vector<Heading> specification_headings() {
  std::filesystem::path spec;
  for (const auto& entry : std::filesystem::directory_iterator(kSeeds)) {
    const std::string file = entry.path().filename().string();
    if (file.starts_with("000_") && file.ends_with(".txt")) spec = entry.path();
  }
  if (spec.empty()) throw Error("no 000_*.txt in " + kSeeds.string());
  std::ifstream in(spec);
  const std::regex heading(R"(^(#{1,6}) [0-9.]+ <a id="[^"]*">([A-Za-z0-9_]+)</a>)");
  std::vector<Heading> headings;
  std::vector<std::string> open(7);  // the latest heading seen on each level
  std::string line;
  std::smatch match;
  while (std::getline(in, line)) {
    if (!std::regex_search(line, match, heading)) continue;
    const int level = static_cast<int>(match[1].length());
    open[static_cast<std::size_t>(level)] = match[2];
    headings.push_back({match[2], level, level > 1 ? open[static_cast<std::size_t>(level) - 1] : ""});
  }
  return headings;
}

class HswModel : public testing::ShippedModelTest {
 protected:
  HswModel() : ShippedModelTest("hsw") {}
};

TEST_F(HswModel, DescribesHaswellClient) {
  EXPECT_EQ(model_.name, "hsw");
  EXPECT_EQ(model_.pfm_pmu, "hsw");
  EXPECT_EQ(model_.counters.general_for(true), 4u);
  EXPECT_EQ(model_.counters.general_for(false), 8u);
  EXPECT_EQ(model_.counters.fixed, 3u);
  for (const unsigned cpu_model : {0x3Cu, 0x45u, 0x46u}) {
    EXPECT_TRUE(model_.matches(testing::intel_cpu(6, cpu_model))) << cpu_model;
  }
  EXPECT_FALSE(model_.matches(testing::intel_cpu(6, 0x3F)));  // Haswell server: a different model
}

TEST_F(HswModel, HasTheConstantsOfTma45) {
  const std::map<std::string, double, std::less<>> expected = {
      {"Pipeline_Width", 4},      {"Exe_Ports", 8},          {"Mem_L2_Store_Cost", 9},   {"Mem_L3_Weight", 7},
      {"Mem_STLB_Hit_Cost", 8},   {"BAClear_Cost", 12},      {"MS_Switches_Cost", 2},    {"Avg_Assist_Cost", 100},
      {"Mem_XSNP_HitM_Cost", 60}, {"Mem_XSNP_Hit_Cost", 43}, {"Mem_XSNP_None_Cost", 29}, {"OneMillion", 1e6},
      {"OneBillion", 1e9}};
  EXPECT_EQ(model_.constants, expected);
}

TEST_F(HswModel, HasSixtyTwoNodesOnSixLevelsAndFortyEightInfoMetrics) {
  const testing::TreeCount count = testing::count_tree(model_);
  EXPECT_EQ(count.nodes_per_level, (std::map<int, int>{{1, 4}, {2, 8}, {3, 17}, {4, 22}, {5, 3}, {6, 8}}));
  EXPECT_EQ(model_.nodes.size(), 62u + 48u);
  EXPECT_EQ(count.infos, 48);
}

TEST_F(HswModel, MatchesEveryHeadingOfTheSpecification) {
  if (!std::filesystem::is_directory(kSeeds)) GTEST_SKIP() << "no specification folder " << kSeeds;
  int tree_nodes = 0;
  int infos = 0;
  for (const Heading& heading : specification_headings()) {
    if (heading.name.starts_with("Metric_")) {
      const Node& info = node(heading.name.substr(std::string_view("Metric_").size()));
      EXPECT_TRUE(info.is_info) << info.name;
      ++infos;
      continue;
    }
    const Node& tree_node = node(heading.name);
    EXPECT_FALSE(tree_node.is_info) << heading.name;
    EXPECT_EQ(tree_node.level, heading.level) << heading.name;
    EXPECT_EQ(tree_node.parent, heading.parent) << heading.name;
    ++tree_nodes;
  }
  EXPECT_EQ(tree_nodes, 62);
  EXPECT_EQ(infos, 48);
}

TEST_F(HswModel, ChildThresholdsNeedTheParentOver) {
  EXPECT_TRUE(over("L2_Bound", 0.06, {{"parent_over", 1}}));
  EXPECT_FALSE(over("L2_Bound", 0.06, {{"parent_over", 0}}));
  EXPECT_FALSE(over("L2_Bound", 0.04, {{"parent_over", 1}}));
  // TMA 4.5 values that later versions changed.
  EXPECT_FALSE(over("Split_Loads", 0.15, {{"parent_over", 1}}));
  EXPECT_FALSE(over("Ports_Utilized_3m", 0.65, {{"parent_over", 1}}));
  // A few nodes stand on their own.
  EXPECT_TRUE(over("FB_Full", 0.31, {{"parent_over", 0}}));
  EXPECT_TRUE(over("Port_7", 0.61, {{"parent_over", 0}}));
  EXPECT_FALSE(over("Frontend_Bound", 0.15, {}));
}

TEST_F(HswModel, HighIpcAndOtherNodesGateSomeThresholds) {
  EXPECT_TRUE(over("Fetch_Bandwidth", 0.2, {{"parent_over", 1}, {"HighIPC", 0.5}}));
  EXPECT_FALSE(over("Fetch_Bandwidth", 0.2, {{"parent_over", 1}, {"HighIPC", 0}}));
  EXPECT_TRUE(over("DSB_Coverage", 0.5, {{"HighIPC", 0.5}}));
  EXPECT_FALSE(over("DSB_Coverage", 0.8, {{"HighIPC", 0.5}}));

  EXPECT_TRUE(over("Retiring", 0.75, {{"over(Heavy_Operations)", 0}}));
  EXPECT_TRUE(over("Retiring", 0.3, {{"over(Heavy_Operations)", 1}}));
  EXPECT_FALSE(over("Retiring", 0.3, {{"over(Heavy_Operations)", 0}}));
}

TEST_F(HswModel, InfoThresholdsUseConstants) {
  EXPECT_TRUE(over("IpTB", 8.5, {}));  // below Pipeline_Width * 2 + 1
  EXPECT_FALSE(over("IpTB", 9, {}));
  EXPECT_TRUE(over("UpTB", 5.9, {}));  // below Pipeline_Width * 1.5
  EXPECT_TRUE(over("IpMispredict", 150, {}));
  EXPECT_FALSE(node("IPC").threshold.has_value());
}

}  // namespace
}  // namespace topdown::model
