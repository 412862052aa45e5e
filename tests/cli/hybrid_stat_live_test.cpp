// topdown stat on a hybrid CPU, counting: -r, --no-multiplex, --columns and
// --html of both core types' trees. Only on a machine with the cpu_core and
// cpu_atom PMUs (an Alder Lake or later); skipped elsewhere, where the
// placement of each type's groups is tested on the fake sysfs tree instead
// (tests/settings/hybrid_settings_test.cpp).
#include <gtest/gtest.h>

#include <filesystem>
#include <nlohmann/json.hpp>
#include <sstream>

#include "../support/temp_tree.h"
#include "run_command.h"

namespace topdown::testing {
namespace {

const std::string kTopdown = TOPDOWN_BIN;
const std::filesystem::path kPmus = "/sys/bus/event_source/devices";

#define SKIP_WITHOUT_HYBRID_PMUS()                                                                  \
  if (!std::filesystem::exists(kPmus / "cpu_core") || !std::filesystem::exists(kPmus / "cpu_atom")) \
  GTEST_SKIP() << "not a hybrid CPU: no cpu_core and cpu_atom PMUs"

std::vector<nlohmann::json> json_lines(const std::string& text) {
  std::vector<nlohmann::json> records;
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);) records.push_back(nlohmann::json::parse(line));
  return records;
}

bool warned(const nlohmann::json& record, const std::string& words) {
  return record["warnings"].dump().find(words) != std::string::npos;
}

TEST(HybridStatLive, RepeatReportsEachCoreTypesMeans) {
  SKIP_WITHOUT_HYBRID_PMUS();
  const CommandResult r = run_command(kTopdown +
                                      " stat -r 3 --json -- sh -c 'i=0; while [ $i -lt 100000 ]; do "
                                      "i=$((i+1)); done'");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const std::vector<nlohmann::json> records = json_lines(r.err);
  ASSERT_FALSE(records.empty());
  double shares = 0;
  for (const nlohmann::json& record : records) {
    EXPECT_TRUE(record["core_type"] == "P-core" || record["core_type"] == "E-core") << record["core_type"];
    EXPECT_TRUE(warned(record, "the command ran 3 times")) << record["warnings"];
    if (record["core_share"].is_number()) shares += record["core_share"].get<double>();
  }
  EXPECT_NEAR(shares, 1.0, 1e-9);
}

TEST(HybridStatLive, NoMultiplexRunsTheTypesGroupsSideBySide) {
  SKIP_WITHOUT_HYBRID_PMUS();
  const CommandResult r = run_command(kTopdown + " stat -l 3 --no-multiplex --json -- true");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  for (const nlohmann::json& record : json_lines(r.err)) {
    EXPECT_FALSE(record["multiplexed"].get<bool>());
    EXPECT_TRUE(warned(record, "once per counter group (each core type's side by side)")) << record["warnings"];
  }
}

TEST(HybridStatLive, ColumnsAndThePageShowEveryCoreType) {
  SKIP_WITHOUT_HYBRID_PMUS();
  TempTree tree;
  const std::string page = (tree.root() / "page.html").string();
  const CommandResult r = run_command(kTopdown + " stat -I 100 --columns --html " + page + " -- sleep 0.35");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const std::string header = r.err.substr(0, r.err.find('\n'));
  ASSERT_NE(header.find(" E-core "), std::string::npos) << header;
  EXPECT_LT(header.find(" P-core "), header.find(" E-core ")) << header;
  EXPECT_NE(r.err.find("\n     total "), std::string::npos) << r.err;
  EXPECT_NE(slurp(page).find("<h2 class=\"core-type\">"), std::string::npos);
}

}  // namespace
}  // namespace topdown::testing
