#include <gtest/gtest.h>

#include <fstream>

#include "collect/collect.h"
#include "common/error.h"
#include "test_support.h"

namespace topdown::collect {
namespace {

// A fake /sys/devices/system/cpu with CPUs 0-1 and 4 online.
class SelectCpus : public ::testing::Test {
 protected:
  void SetUp() override { std::ofstream(dir_.path() / "online") << "0-1,4\n"; }

  std::string error_of(std::string_view list) const {
    try {
      select_cpus(list, dir_.path());
    } catch (const Error& error) {
      return error.what();
    }
    return "no error";
  }

  testing::TempDir dir_;
};

TEST_F(SelectCpus, EmptyListMeansEveryOnlineCpu) {
  EXPECT_EQ(select_cpus("", dir_.path()), (std::vector<int>{0, 1, 4}));
}

TEST_F(SelectCpus, ListsAndRangesAreSortedWithoutRepeats) {
  EXPECT_EQ(select_cpus("4,0-1,1", dir_.path()), (std::vector<int>{0, 1, 4}));
  EXPECT_EQ(select_cpus("1", dir_.path()), (std::vector<int>{1}));
}

TEST_F(SelectCpus, OfflineCpuIsAnError) {
  EXPECT_EQ(error_of("2-3"), "-C 2-3: CPU 2 is not online (online: 0-1,4); choose from those");
}

TEST_F(SelectCpus, MalformedListIsAnError) {
  EXPECT_NE(error_of("one").find("-C one"), std::string::npos) << error_of("one");
}

TEST(SelectCpusOnThisMachine, FindsTheOnlineCpus) { EXPECT_FALSE(select_cpus("").empty()); }

}  // namespace
}  // namespace topdown::collect
