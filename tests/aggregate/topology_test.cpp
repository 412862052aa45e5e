#include <gtest/gtest.h>

#include "aggregate/aggregate.h"
#include "common/error.h"
#include "support/temp_tree.h"

namespace topdown::aggregate {
namespace {

TEST(Topology, ReadsLscpuParsableOutput) {
  topdown::testing::TempTree tree;
  const auto file = tree.write("lscpu.txt",
                               "# The following is the parsable format, which can be fed to other\n"
                               "# CPU,Core,Socket\n"
                               "0,0,0\n1,1,0\n2,0,0\n3,1,0\n4,2,1\n");
  const Topology topology = Topology::read_lscpu(file);
  EXPECT_EQ(topology.size(), 5u);
  ASSERT_NE(topology.find(4), nullptr);
  EXPECT_EQ(topology.find(4)->core, 2);
  EXPECT_EQ(topology.find(4)->socket, 1);
  EXPECT_EQ(topology.cpus_of_core(*topology.find(1)), (std::vector<int>{1, 3}));
  EXPECT_EQ(topology.find(5), nullptr);
}

// perfmon's SOCKET_COUNT and CORES_PER_SOCKET of a measured machine.
TEST(Topology, CountsSocketsAndTheirCores) {
  const Topology even({{0, {0, 0}}, {1, {1, 0}}, {2, {0, 0}}, {3, {0, 1}}, {4, {5, 1}}});
  EXPECT_EQ(even.socket_count(), 2);
  EXPECT_EQ(even.cores_per_socket(), 2);  // cores 0 and 1 of socket 0 (CPU 2 is core 0's sibling), 0 and 5 of socket 1
  const Topology uneven({{0, {0, 0}}, {1, {1, 0}}, {2, {0, 1}}});
  EXPECT_EQ(uneven.socket_count(), 2);
  EXPECT_EQ(uneven.cores_per_socket(), 0);  // no one number
  EXPECT_EQ(Topology().socket_count(), 0);
  EXPECT_EQ(Topology().cores_per_socket(), 0);
}

// Plain `lscpu -p` has more columns; its header says which is which.
TEST(Topology, FollowsTheHeadersColumnsAndSkipsOfflineCpus) {
  topdown::testing::TempTree tree;
  const auto file = tree.write("lscpu.txt",
                               "# CPU,Core,Socket,Node,,L1d,L1i,L2,L3\n"
                               "0,0,0,0,,0,0,0,0\n"
                               "1,,,,,,,,\n"
                               "2,1,0,0,,1,1,1,0\n");
  const Topology topology = Topology::read_lscpu(file);
  EXPECT_EQ(topology.size(), 2u);
  EXPECT_EQ(topology.find(2)->core, 1);
  EXPECT_EQ(topology.find(1), nullptr);

  const auto reordered = tree.write("reordered.txt", "# CPU,Socket,Core\n0,1,7\n");
  EXPECT_EQ(Topology::read_lscpu(reordered).find(0)->core, 7);
  EXPECT_EQ(Topology::read_lscpu(reordered).find(0)->socket, 1);
}

TEST(Topology, BadLinesNameTheFileAndLine) {
  topdown::testing::TempTree tree;
  const auto file = tree.write("lscpu.txt", "0,0,0\nzero,0,0\n");
  try {
    Topology::read_lscpu(file);
    FAIL() << "no error";
  } catch (const ParseError& error) {
    EXPECT_EQ(error.where().line, 2);
    EXPECT_NE(std::string(error.what()).find("lscpu -p=CPU,CORE,SOCKET"), std::string::npos) << error.what();
  }
  EXPECT_THROW(Topology::read_lscpu(tree.write("twice.txt", "0,0,0\n0,1,0\n")), ParseError);
  EXPECT_THROW(Topology::read_lscpu(tree.write("short.txt", "0,0\n")), ParseError);
  EXPECT_THROW(Topology::read_lscpu(tree.write("empty.txt", "# CPU,Core,Socket\n")), Error);
  EXPECT_THROW(Topology::read_lscpu(tree.root() / "missing.txt"), Error);
}

TEST(Topology, ReadsSysfs) {
  topdown::testing::TempTree tree;
  tree.write("cpu/cpu0/topology/core_id", "0\n");
  tree.write("cpu/cpu0/topology/physical_package_id", "0\n");
  tree.write("cpu/cpu1/topology/core_id", "0\n");
  tree.write("cpu/cpu1/topology/physical_package_id", "0\n");
  tree.write("cpu/cpu12/topology/core_id", "3\n");
  tree.write("cpu/cpu12/topology/physical_package_id", "1\n");
  tree.mkdir("cpu/cpu13");  // offline: no topology
  tree.mkdir("cpu/cpufreq");
  const Topology topology = Topology::read_sysfs(tree.root() / "cpu");
  EXPECT_EQ(topology.size(), 3u);
  EXPECT_EQ(topology.find(12)->core, 3);
  EXPECT_EQ(topology.find(12)->socket, 1);
  EXPECT_EQ(topology.cpus_of_core(*topology.find(0)), (std::vector<int>{0, 1}));
  EXPECT_THROW(Topology::read_sysfs(tree.root() / "nothing"), Error);
}

}  // namespace
}  // namespace topdown::aggregate
