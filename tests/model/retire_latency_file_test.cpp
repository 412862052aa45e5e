#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "../support/temp_tree.h"
#include "common/error.h"
#include "model/retire_latency_file.h"

namespace topdown::model {
namespace {

using ::testing::HasSubstr;
using topdown::testing::TempTree;

using Latencies = std::map<std::string, double, std::less<>>;

// perfmon's shape (graniterapids_retire_latency.json): a Platform object, then
// each event's MIN, MAX and MEAN; a hand-written file may quote the numbers.
TEST(RetireLatencyFile, ReadsEachEventsMeanByItsFormulaName) {
  const TempTree tree;
  const auto file = tree.write("mtl_retire_latency.json", R"({
    "Platform": {"Model name": "test", "CPU family": "6"},
    "Data": {
      "BR_MISP_RETIRED.RET_COST": {"MIN": 0, "MAX": 900, "MEAN": 32.37},
      "MEM_INST_RETIRED.LOCK_LOADS": {"MEAN": "63.76"}
    }})");
  EXPECT_EQ(read_retire_latency_file(file), (Latencies{{"Retire_Latency_BR_MISP_RETIRED_RET_COST", 32.37},
                                                       {"Retire_Latency_MEM_INST_RETIRED_LOCK_LOADS", 63.76}}));
}

TEST(RetireLatencyFile, BadFilesNameTheFileAndTheFix) {
  const TempTree tree;
  const auto error_of = [&](const std::string& text) {
    const auto file = tree.write("bad.json", text);
    try {
      read_retire_latency_file(file);
    } catch (const Error& error) {
      EXPECT_THAT(error.what(), HasSubstr(file.string()));
      return std::string(error.what());
    }
    return std::string("no error");
  };
  EXPECT_THAT(error_of("{\"Data\": "), HasSubstr("is not JSON"));
  EXPECT_THAT(error_of(R"({"Data": {"X.Y": {"MEAN": 1e999}}})"), HasSubstr("holds a number too large for a double"));
  EXPECT_THAT(error_of("[1, 2]"), HasSubstr("has no \"Data\" object"));
  EXPECT_THAT(error_of(R"({"Data": {"X.Y": {"MAX": 3}}})"), HasSubstr("event X.Y has no MEAN that is a number"));
  EXPECT_THAT(error_of(R"({"Data": {"X.Y": {"MEAN": -1}}})"), HasSubstr("event X.Y has no MEAN"));
  EXPECT_THAT(error_of(R"({"Data": {"X.Y": {"MEAN": "soon"}}})"), HasSubstr("event X.Y has no MEAN"));
  try {
    read_retire_latency_file(tree.root() / "absent.json");
    ADD_FAILURE() << "read a file that does not exist";
  } catch (const Error& error) {
    EXPECT_THAT(error.what(), HasSubstr("cannot open retire latency file"));
    EXPECT_THAT(error.what(), HasSubstr("check the path given to --retire-latencies"));
  }
}

}  // namespace
}  // namespace topdown::model
