#include <gtest/gtest.h>

#include "import_fixture.h"

namespace topdown::import::testing {
namespace {

TEST(CountsFile, EventsCommentsAndRunVariables) {
  auto file = read_whole(
      "# collected on the build machine\n"
      "interval-s 2.5\n"
      "smt_enabled 1\n"
      "\n"
      "ls_not_halted_cyc   1000000   # cycles\n"
      "cpu/event=0xc0/\t800000\n"
      "ebs_mode 0\n");
  EXPECT_EQ(file.info.format, Format::CountsFile);
  EXPECT_EQ(file.info.smt_enabled, std::optional<bool>(true));
  EXPECT_EQ(file.info.ebs_mode, std::optional<bool>(false));
  EXPECT_FALSE(file.info.perf_metrics);
  EXPECT_EQ(file.info.rows, 2u);
  EXPECT_DOUBLE_EQ(file.whole.sample.duration_s, 2.5);
  EXPECT_DOUBLE_EQ(value_of(file.whole, "ls_not_halted_cyc"), 1e6);
  EXPECT_DOUBLE_EQ(value_of(file.whole, "cpu/event=0xc0/"), 8e5);
  // No running times in the file: counted the whole interval.
  EXPECT_EQ(file.whole.sample.find("cpu/event=0xc0/")->time_enabled, 2500000000u);
  EXPECT_EQ(file.whole.sample.find("cpu/event=0xc0/")->running_share(), 1.0);
  EXPECT_EQ(file.whole.sample.find("interval-s"), nullptr);
}

TEST(CountsFile, PerfMetricsAndOnlineCpusRunVariables) {
  EXPECT_EQ(read_whole("perf_metrics 1\nslots 100\n").info.perf_metrics, std::optional<bool>(true));
  EXPECT_EQ(read_whole("slots 100\nperf_metrics 0\n").info.perf_metrics, std::optional<bool>(false));
  EXPECT_EQ(read_whole("num_cpus_online 16\nslots 100\n").info.online_cpus, std::optional<int>(16));
  EXPECT_FALSE(read_whole("slots 100\n").info.online_cpus);
  EXPECT_NE(read_error("slots 1\nnum_cpus_online 2.5\n").find(":2: num_cpus_online must be a whole number"),
            std::string::npos);
}

TEST(CountsFile, SocketAndChaCountRunVariables) {
  const auto file = read_whole("socket_count 2\nchas_per_socket 56\nslots 100\n");
  EXPECT_EQ(file.info.sockets, std::optional<int>(2));
  EXPECT_EQ(file.info.chas_per_socket, std::optional<int>(56));
  EXPECT_EQ(file.whole.sample.find("socket_count"), nullptr);  // a fact of the machine, not a count
  EXPECT_FALSE(read_whole("slots 100\n").info.sockets);
  EXPECT_NE(read_error("slots 1\nsocket_count 0\n").find(":2: socket_count must be a whole number of sockets"),
            std::string::npos);
  EXPECT_NE(read_error("chas_per_socket 1.5\n").find(":1: chas_per_socket must be a whole number of CHA boxes"),
            std::string::npos);
}

// EVENT:R lines give the event's mean retire latency, not a count; lines of
// one event are averaged.
TEST(CountsFile, RetireLatencyLinesAreMeansNotCounts) {
  const auto file = read_whole(
      "BR_MISP_RETIRED.RET_COST 4000\n"
      "BR_MISP_RETIRED.RET_COST:R 30\n"
      "BR_MISP_RETIRED.RET_COST:R 34\n"
      "MEM_INST_RETIRED.LOCK_LOADS:R 61.5\n");
  EXPECT_EQ(file.info.retire_latencies,
            (std::map<std::string, double, std::less<>>{{"Retire_Latency_BR_MISP_RETIRED_RET_COST", 32},
                                                        {"Retire_Latency_MEM_INST_RETIRED_LOCK_LOADS", 61.5}}));
  EXPECT_EQ(file.info.rows, 1u);
  EXPECT_DOUBLE_EQ(value_of(file.whole, "BR_MISP_RETIRED.RET_COST"), 4000);
  EXPECT_EQ(file.whole.sample.find("BR_MISP_RETIRED.RET_COST:R"), nullptr);
}

TEST(CountsFile, CoresPerSocketRunVariable) {
  const auto file = read_whole("cores_per_socket 18\nslots 100\n");
  EXPECT_EQ(file.info.cores_per_socket, std::optional<int>(18));
  EXPECT_EQ(file.whole.sample.find("cores_per_socket"), nullptr);
  EXPECT_NE(read_error("cores_per_socket 0\n").find(":1: cores_per_socket must be a whole number of cores"),
            std::string::npos);
  EXPECT_NE(read_error("cores_per_socket 4\ncores_per_socket 4\n").find("cores_per_socket is given twice"),
            std::string::npos);
}

TEST(CountsFile, LinesOfOneEventAddUp) {
  auto file = read_whole("cycles 100\ncycles 50\n");
  EXPECT_DOUBLE_EQ(value_of(file.whole, "cycles"), 150);
  EXPECT_FALSE(file.info.smt_enabled);
  EXPECT_DOUBLE_EQ(file.whole.sample.duration_s, 0);
  EXPECT_DOUBLE_EQ(*file.whole.sample.find("cycles")->scaled(), 150);
}

TEST(CountsFile, BadLinesNameTheLine) {
  EXPECT_NE(read_error("cycles 100\ninstructions\n").find("counts.txt:2: expected 'EVENT VALUE'"), std::string::npos);
  EXPECT_NE(read_error("cycles 100\n\ninstructions many\n").find(":3: value 'many' of instructions is not a number"),
            std::string::npos);
  EXPECT_NE(read_error("cycles 100\ninstructions -5\n").find(":2: value '-5'"), std::string::npos);
  EXPECT_NE(read_error("cycles 100\ncycles 1 2\n").find(":2: expected 'EVENT VALUE'"), std::string::npos);
  EXPECT_NE(read_error("smt_enabled 2\ncycles 1\n").find(":1: smt_enabled must be 0 or 1"), std::string::npos);
  EXPECT_NE(read_error("cycles 1\nperf_metrics 0.5\n").find(":2: perf_metrics must be 0 or 1"), std::string::npos);
  EXPECT_NE(read_error("cycles 1\ninterval-s 0\n").find(":2: interval-s must be a number of seconds above 0"),
            std::string::npos);
  EXPECT_NE(read_error("interval-s 1\ncycles 1\ninterval-s 2\n").find(":3: interval-s is given twice"),
            std::string::npos);
  EXPECT_NE(read_error("smt_enabled 1\n").find("has run variables but no 'EVENT VALUE' lines"), std::string::npos);
}

}  // namespace
}  // namespace topdown::import::testing
