// Sapphire Rapids' uncore Info metrics from a `perf stat -a -A` file: perf
// prints each uncore event (every box of its unit added up) on the first
// CPU of each socket, named as `stat --cpu spr --print-perf` names them.
#include <gtest/gtest.h>

#include <map>
#include <nlohmann/json.hpp>
#include <sstream>
#include <string>
#include <vector>

#include "../support/temp_tree.h"
#include "json_reports.h"
#include "run_command.h"

namespace topdown::testing {
namespace {

const std::string kTopdown = TOPDOWN_BIN;
const char* kTwoSockets = "# CPU,Core,Socket\n0,0,0\n1,1,0\n2,0,1\n3,1,1\n";

struct SocketCounts {
  double clockticks, occupancy, occupancy_cycles, local_reads, local_prefetches, remote_reads, remote_prefetches,
      io_reads, io_read_misses;
};
const SocketCounts kSocket0{2.0e9, 6.0e9, 2.0e9, 3000, 1000, 500, 500, 800, 200};
const SocketCounts kSocket1{2.1e9, 3.0e9, 1.5e9, 1000, 0, 3000, 1000, 100, 100};

std::string spr_file() {
  std::string text;
  const auto row = [&text](int cpu, double value, const std::string& event) {
    text += "CPU" + std::to_string(cpu) + "," + std::to_string(static_cast<long long>(value)) + ",," + event +
            ",1000,100.00,,\n";
  };
  for (int cpu = 0; cpu < 4; ++cpu) row(cpu, 1e9, "INST_RETIRED.ANY");
  for (const auto& [cpu, s] : {std::pair{0, kSocket0}, std::pair{2, kSocket1}}) {
    row(cpu, s.clockticks, "UNC_CHA_CLOCKTICKS:one_unit");
    row(cpu, s.occupancy, "UNC_CHA_TOR_OCCUPANCY.IA_MISS_DRD");
    row(cpu, s.occupancy_cycles, "UNC_CHA_TOR_OCCUPANCY.IA_MISS_DRD:c1");
    row(cpu, s.local_reads, "UNC_CHA_TOR_INSERTS.IA_MISS_DRD_LOCAL");
    row(cpu, s.local_prefetches, "UNC_CHA_TOR_INSERTS.IA_MISS_DRD_PREF_LOCAL");
    row(cpu, s.remote_reads, "UNC_CHA_TOR_INSERTS.IA_MISS_DRD_REMOTE");
    row(cpu, s.remote_prefetches, "UNC_CHA_TOR_INSERTS.IA_MISS_DRD_PREF_REMOTE");
    row(cpu, s.io_reads, "UNC_CHA_TOR_INSERTS.IO_PCIRDCUR");
    row(cpu, s.io_read_misses, "UNC_CHA_TOR_INSERTS.IO_MISS_PCIRDCUR");
  }
  return text;
}

// scope ("whole" for the file) -> Info metric -> value.
std::map<std::string, std::map<std::string, double>> info_values(const std::string& json) {
  const std::vector<nlohmann::json> reports = json_reports(json);
  std::map<std::string, std::map<std::string, double>> values;
  for (const nlohmann::json& report : reports) {
    if (!report.is_object() || !report.contains("info")) continue;
    const std::string scope = report.value("scope", std::string("whole"));
    for (const auto& metric : report["info"]) {
      if (metric["value"].is_number()) values[scope][metric["name"].get<std::string>()] = metric["value"].get<double>();
    }
  }
  return values;
}

double local_share(const SocketCounts& s) {
  const double local = s.local_reads + s.local_prefetches;
  return 100 * local / (local + s.remote_reads + s.remote_prefetches);
}

class ServerUncoreImport : public ::testing::Test {
 protected:
  TempTree tree_;
  std::filesystem::path file_ = tree_.write("spr-A.csv", spr_file());
  std::filesystem::path topology_ = tree_.write("lscpu.txt", kTwoSockets);
};

// TMA 5.01's model: the TMA 5.2 metrics file has no IO metric.
TEST_F(ServerUncoreImport, EachSocketsUncoreMetricsComeFromItsBoxes) {
  const CommandResult r = run_command(kTopdown + " import --cpu spr@5.01 --info --json -l 1 --per-socket --topology " +
                                      topology_.string() + " " + file_.string());
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const auto values = info_values(r.err);
  for (const auto& [scope, s] : {std::pair{"S0", kSocket0}, std::pair{"S1", kSocket1}}) {
    ASSERT_TRUE(values.count(scope)) << r.err;
    const auto& metrics = values.at(scope);
    EXPECT_DOUBLE_EQ(metrics.at("Info_System_Socket_CLKS"), s.clockticks) << scope;
    EXPECT_DOUBLE_EQ(metrics.at("Info_System_MEM_Parallel_Reads"), s.occupancy / s.occupancy_cycles) << scope;
    EXPECT_NEAR(metrics.at("numa_reads_addressed_to_local_dram"), local_share(s), 1e-9) << scope;
    EXPECT_NEAR(metrics.at("io_percent_of_inbound_reads_that_miss_l3"), 100 * s.io_read_misses / s.io_reads, 1e-9)
        << scope;
  }
}

TEST_F(ServerUncoreImport, TheWholeFileAddsTheSocketsUp) {
  const CommandResult r = run_command(kTopdown + " import --cpu spr --info --json -l 1 " + file_.string());
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const auto metrics = info_values(r.err).at("whole");
  EXPECT_DOUBLE_EQ(metrics.at("Info_System_Socket_CLKS"), kSocket0.clockticks + kSocket1.clockticks);
  EXPECT_DOUBLE_EQ(metrics.at("Info_System_MEM_Parallel_Reads"),
                   (kSocket0.occupancy + kSocket1.occupancy) / (kSocket0.occupancy_cycles + kSocket1.occupancy_cycles));
}

// perfmon's uncore_frequency and llc_demand_data_read_miss_latency divide the
// clock ticks of every CHA box by the boxes: the counts file says how many.
TEST(ServerUncoreSizes, CountsFileGivesSocketsAndChasPerSocket) {
  TempTree tree;
  const std::string counts =
      "interval-s 2\nUNC_CHA_CLOCKTICKS 12000000000\nUNC_CHA_TOR_OCCUPANCY.IA_MISS_DRD 3000000\n"
      "UNC_CHA_TOR_INSERTS.IA_MISS_DRD 10000\n";
  const std::filesystem::path sized = tree.write("sized.counts", "socket_count 2\nchas_per_socket 3\n" + counts);
  const CommandResult r = run_command(kTopdown + " import --cpu spr --info --json -l 1 " + sized.string());
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const auto metrics = info_values(r.err).at("whole");
  // 12e9 ticks over 6 boxes in 2 s: 1 GHz; 300 ticks per read at 1e9 ticks a second per box, in 2 s.
  EXPECT_DOUBLE_EQ(metrics.at("uncore_frequency"), 12e9 / 6 / 1e9 / 2);
  EXPECT_DOUBLE_EQ(metrics.at("llc_demand_data_read_miss_latency"), 1e9 * (3e6 / 1e4) / (12e9 / 6) * 2);

  const std::filesystem::path unsized = tree.write("unsized.counts", counts);
  const CommandResult without = run_command(kTopdown + " import --cpu spr --info --json -l 1 " + unsized.string());
  ASSERT_EQ(without.exit_code, 0) << without.err;
  EXPECT_EQ(info_values(without.err).at("whole").count("uncore_frequency"), 0u);  // n/a: no value to show
}

// Skylake server's uncore_frequency divides by the cores of each socket
// (perfmon's CORES_PER_SOCKET: one caching agent per core there).
TEST(ServerUncoreSizes, CountsFileGivesCoresPerSocket) {
  TempTree tree;
  const std::string counts = "interval-s 4\nsocket_count 2\nUNC_CHA_CLOCKTICKS 38400000000\n";
  const std::filesystem::path sized = tree.write("sized.counts", "cores_per_socket 4\n" + counts);
  const CommandResult r = run_command(kTopdown + " import --cpu skx --info --json -l 1 " + sized.string());
  ASSERT_EQ(r.exit_code, 0) << r.err;
  // 38.4e9 ticks over 8 boxes in 4 s: 1.2 GHz.
  EXPECT_DOUBLE_EQ(info_values(r.err).at("whole").at("uncore_frequency"), 1.2);

  const std::filesystem::path unsized = tree.write("unsized.counts", counts);
  const CommandResult without = run_command(kTopdown + " import --cpu skx --info --json -l 1 " + unsized.string());
  ASSERT_EQ(without.exit_code, 0) << without.err;
  EXPECT_EQ(info_values(without.err).at("whole").count("uncore_frequency"), 0u);
}

// A perf -A file cannot say the machine's size: --topology (its lscpu) does,
// sockets and cores per socket, unless the file's lines say otherwise.
TEST(ServerUncoreSizes, TheTopologyGivesSocketsAndCoresPerSocket) {
  TempTree tree;
  const std::filesystem::path topology = tree.write("lscpu.txt", kTwoSockets);  // 2 sockets of 2 cores
  std::string rows = "CPU0,2000000000,,duration_time,2000000000,100.00,,\n";
  rows += "CPU0,9600000000,,UNC_CHA_CLOCKTICKS,2000000000,100.00,,\n";  // socket 0's boxes
  rows += "CPU2,9600000000,,UNC_CHA_CLOCKTICKS,2000000000,100.00,,\n";  // socket 1's
  const std::filesystem::path file = tree.write("skx-A.csv", rows);
  const CommandResult r = run_command(kTopdown + " import --cpu skx --info --json -l 1 --topology " +
                                      topology.string() + " " + file.string());
  ASSERT_EQ(r.exit_code, 0) << r.err;
  // 19.2e9 ticks over 2 sockets of 2 boxes in 2 s: 2.4 GHz.
  EXPECT_DOUBLE_EQ(info_values(r.err).at("whole").at("uncore_frequency"), 19.2e9 / 4 / 1e9 / 2);

  const CommandResult unsized = run_command(kTopdown + " import --cpu skx --info --json -l 1 " + file.string());
  ASSERT_EQ(unsized.exit_code, 0) << unsized.err;
  EXPECT_EQ(info_values(unsized.err).at("whole").count("uncore_frequency"), 0u);
}

// The kernel's RAPL events count 2^-32 J; perfmon's server formula reads the
// package MSR (2^-14 J, as 61 uJ) and the DRAM MSR (2^-16 J, as 15.6 uJ).
TEST(ServerUncorePower, PackageAndDramEnergyGiveWatts) {
  TempTree tree;
  const double package_joules = 400;
  const double dram_joules = 60;
  const double two_to_32 = 4294967296.0;
  const std::filesystem::path file =
      tree.write("power.counts", "interval-s 2\npower/energy-pkg/ " + std::to_string(package_joules * two_to_32) +
                                     "\npower/energy-dram/ " + std::to_string(dram_joules * two_to_32) + "\n");
  const CommandResult r = run_command(kTopdown + " import --cpu spr --info --json -l 1 " + file.string());
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const double package_msr = package_joules * 16384;  // 2^14 counts a joule
  const double dram_msr = dram_joules * 65536;        // 2^16
  EXPECT_NEAR(info_values(r.err).at("whole").at("Info_System_Power"), (package_msr * 61 + dram_msr * 15.6) / 2e6, 1e-9);
}

// The IIO boxes' data requests: four bytes each, every port (SPR's
// ALL_PARTS) or one event per port (SKX's PART0-3, which the model adds up).
TEST(ServerUncoreIio, RequestsOfTheIioBoxesGiveIoBandwidth) {
  TempTree tree;
  const std::filesystem::path spr = tree.write("spr.counts",
                                               "interval-s 2\nUNC_IIO_DATA_REQ_OF_CPU.MEM_READ.ALL_PARTS 500000000\n"
                                               "UNC_IIO_DATA_REQ_OF_CPU.MEM_WRITE.ALL_PARTS 250000000\n");
  const CommandResult r = run_command(kTopdown + " import --cpu spr --info --json -l 1 " + spr.string());
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const auto metrics = info_values(r.err).at("whole");
  EXPECT_DOUBLE_EQ(metrics.at("iio_bandwidth_read"), 5e8 * 4 / 1e6 / 2);  // MB/s
  EXPECT_DOUBLE_EQ(metrics.at("iio_bandwidth_write"), 2.5e8 * 4 / 1e6 / 2);

  std::string parts = "interval-s 2\n";
  for (int part = 0; part < 4; ++part) {
    parts += "UNC_IIO_DATA_REQ_OF_CPU.MEM_WRITE.PART" + std::to_string(part) + " " +
             std::to_string((part + 1) * 100000000) + "\n";
  }
  const std::filesystem::path skx = tree.write("skx.counts", parts);
  const CommandResult s = run_command(kTopdown + " import --cpu skx --info --json -l 1 " + skx.string());
  ASSERT_EQ(s.exit_code, 0) << s.err;
  // Devices writing to memory: 1e9 requests of four bytes in 2 s, in GB/s.
  EXPECT_DOUBLE_EQ(info_values(s.err).at("whole").at("Info_System_IO_Read_BW"), 1e9 * 4 / 1e9 / 2);
}

}  // namespace
}  // namespace topdown::testing
