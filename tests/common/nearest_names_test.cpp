#include "common/nearest_names.h"

#include <gtest/gtest.h>

namespace topdown {
namespace {

using Names = std::vector<std::string>;

TEST(NearestNames, CountsInsertionsDeletionsAndReplacements) {
  const Names names = {"level", "json", "csv"};
  EXPECT_EQ(nearest_names("levle", names, 2), Names{"level"});  // a swap is two replacements
  EXPECT_EQ(nearest_names("jsn", names, 1), Names{"json"});     // one deletion
  EXPECT_EQ(nearest_names("csvx", names, 1), Names{"csv"});     // one insertion
  EXPECT_EQ(nearest_names("levle", names, 1), Names{});         // two edits allowed one
}

TEST(NearestNames, KeepsEveryNameAtTheSmallestDistanceOnce) {
  const Names names = {"skx", "skl", "clx", "skl", "sklx"};
  EXPECT_EQ(nearest_names("sky", names, 2), (Names{"skx", "skl"}));
  EXPECT_EQ(nearest_names("skl", names, 2), Names{"skl"});
  EXPECT_EQ(nearest_names("SKL", names, 2), Names{});  // case counts
  EXPECT_EQ(nearest_names("", names, 3), (Names{"skx", "skl", "clx"}));
  EXPECT_EQ(nearest_names("skl", {}, 3), Names{});
}

}  // namespace
}  // namespace topdown
