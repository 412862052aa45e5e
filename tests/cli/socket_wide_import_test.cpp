// Counts a PMU keeps once per socket in `perf stat -a -A` files: perf prints
// an uncore box's count on the first CPU of each socket only. Per CPU and per
// core, every unit of the socket gets that count, and its values say so.
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

// Two sockets of two cores, no SMT: CPUs 0 and 1 on socket 0, 2 and 3 on
// socket 1. The uncore rows are on CPU0 and CPU2.
const char* kTwoSockets = "# CPU,Core,Socket\n0,0,0\n1,1,0\n2,0,1\n3,1,1\n";

std::string two_socket_file() {
  std::string text;
  const auto row = [&text](int cpu, double value, const std::string& event) {
    text += "CPU" + std::to_string(cpu) + "," + std::to_string(static_cast<long long>(value)) + ",," + event +
            ",1000,100.00,,\n";
  };
  for (int cpu = 0; cpu < 4; ++cpu) row(cpu, 100000 + 1000 * cpu, "CPU_CLK_UNHALTED.THREAD");
  for (int cpu = 0; cpu < 4; ++cpu) row(cpu, 80000 + 1000 * cpu, "IDQ_UOPS_NOT_DELIVERED.CORE");
  // Socket 0: 60000 / 1000 requests = 60 cycles each, 3 in flight; socket 1:
  // 90000 / 3000 = 30 cycles, 2 in flight.
  row(0, 60000, "UNC_ARB_TRK_OCCUPANCY.ALL");
  row(2, 90000, "UNC_ARB_TRK_OCCUPANCY.ALL");
  row(0, 1000, "UNC_ARB_TRK_REQUESTS.ALL");
  row(2, 3000, "UNC_ARB_TRK_REQUESTS.ALL");
  row(0, 20000, "UNC_ARB_TRK_OCCUPANCY.CYCLES_WITH_ANY_REQUEST");
  row(2, 45000, "UNC_ARB_TRK_OCCUPANCY.CYCLES_WITH_ANY_REQUEST");
  row(0, 200000, "UNC_CLOCK.SOCKET");
  row(2, 210000, "UNC_CLOCK.SOCKET");
  return text;
}

// scope -> node or metric name -> its JSON object.
using Reports = std::map<std::string, std::map<std::string, nlohmann::json>>;

// One JSON object (the whole file's) or one per line (per unit).
Reports reports_of(const std::string& json) {
  const std::vector<nlohmann::json> objects = json_reports(json);
  Reports reports;
  for (const nlohmann::json& report : objects) {
    if (!report.is_object()) continue;
    std::string scope = report.value("scope", std::string());
    if (scope.empty()) scope = "whole";
    for (const char* list : {"nodes", "info"}) {
      if (!report.contains(list)) continue;
      for (const auto& node : report[list]) reports[scope][node["name"].get<std::string>()] = node;
    }
  }
  return reports;
}

class SocketWideImport : public ::testing::Test {
 protected:
  CommandResult import(const std::string& options) {
    return run_command(kTopdown + " import --cpu hsw --smt off --info --json " + options + " " + file_.string());
  }

  TempTree tree_;
  std::filesystem::path file_ = tree_.write("perf-A.csv", two_socket_file());
  std::filesystem::path topology_ = tree_.write("lscpu.txt", kTwoSockets);
};

TEST_F(SocketWideImport, EveryCpuGetsItsSocketsUncoreValues) {
  const CommandResult r = import("--per-thread --topology " + topology_.string());
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const Reports reports = reports_of(r.err);
  ASSERT_EQ(reports.size(), 4u) << r.err;
  const std::map<std::string, std::vector<double>> expected{
      {"CPU0", {60, 3, 200000}}, {"CPU1", {60, 3, 200000}}, {"CPU2", {30, 2, 210000}}, {"CPU3", {30, 2, 210000}}};
  for (const auto& [cpu, values] : expected) {
    const auto& nodes = reports.at(cpu);
    EXPECT_DOUBLE_EQ(nodes.at("MEM_Request_Latency")["value"].get<double>(), values[0]) << cpu;
    EXPECT_DOUBLE_EQ(nodes.at("MEM_Parallel_Requests")["value"].get<double>(), values[1]) << cpu;
    EXPECT_DOUBLE_EQ(nodes.at("Socket_CLKS")["value"].get<double>(), values[2]) << cpu;
    for (const char* metric : {"MEM_Request_Latency", "MEM_Parallel_Requests", "Socket_CLKS"})
      EXPECT_TRUE(nodes.at(metric)["socket_wide"].get<bool>()) << cpu << " " << metric;
    // A CPU's own counts stay its own.
    EXPECT_FALSE(nodes.at("Frontend_Bound")["socket_wide"].get<bool>()) << cpu;
  }
  EXPECT_DOUBLE_EQ(reports.at("CPU3").at("Frontend_Bound")["value"].get<double>(), 83000.0 / (4 * 103000.0));
}

TEST_F(SocketWideImport, EveryCoreGetsItsSocketsUncoreValuesAndTheTextSaysSo) {
  const CommandResult r = import("--per-core --topology " + topology_.string());
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const Reports reports = reports_of(r.err);
  ASSERT_EQ(reports.size(), 4u) << r.err;
  EXPECT_DOUBLE_EQ(reports.at("S0-C1").at("Socket_CLKS")["value"].get<double>(), 200000);
  EXPECT_DOUBLE_EQ(reports.at("S1-C1").at("MEM_Request_Latency")["value"].get<double>(), 30);

  const CommandResult text = run_command(kTopdown + " import --cpu hsw --smt off --info --per-core --topology " +
                                         topology_.string() + " " + file_.string());
  ASSERT_EQ(text.exit_code, 0) << text.err;
  const size_t core = text.err.find("=== S1-C1 ===");
  ASSERT_NE(core, std::string::npos) << text.err;
  const size_t socket_clks = text.err.find("Socket_CLKS", core);
  ASSERT_NE(socket_clks, std::string::npos) << text.err;
  const std::string line = text.err.substr(socket_clks, text.err.find('\n', socket_clks) - socket_clks);
  EXPECT_NE(line.find("210,000"), std::string::npos) << line;
  EXPECT_NE(line.find("socket-wide"), std::string::npos) << line;
}

TEST_F(SocketWideImport, PerSocketAndTheWholeFileAreUnchanged) {
  const CommandResult sockets = import("--per-socket --topology " + topology_.string());
  ASSERT_EQ(sockets.exit_code, 0) << sockets.err;
  const Reports per_socket = reports_of(sockets.err);
  ASSERT_EQ(per_socket.size(), 2u) << sockets.err;
  EXPECT_DOUBLE_EQ(per_socket.at("S1").at("Socket_CLKS")["value"].get<double>(), 210000);
  EXPECT_FALSE(per_socket.at("S1").at("Socket_CLKS")["socket_wide"].get<bool>());

  const CommandResult whole = import("");
  ASSERT_EQ(whole.exit_code, 0) << whole.err;
  const Reports file = reports_of(whole.err);
  EXPECT_DOUBLE_EQ(file.at("whole").at("Socket_CLKS")["value"].get<double>(), 410000);
  EXPECT_DOUBLE_EQ(file.at("whole").at("MEM_Request_Latency")["value"].get<double>(), 150000.0 / 4000);
}

TEST_F(SocketWideImport, WithoutATopologyTheOtherCpusAreNotAvailableAndTheWarningSaysWhy) {
  const CommandResult r = import("--per-thread");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const Reports reports = reports_of(r.err);
  EXPECT_DOUBLE_EQ(reports.at("CPU2").at("Socket_CLKS")["value"].get<double>(), 210000);
  EXPECT_TRUE(reports.at("CPU3").at("Socket_CLKS")["value"].is_null());
  EXPECT_NE(r.err.find("--topology FILE so that each CPU gets its socket's count"), std::string::npos) << r.err;
}

}  // namespace
}  // namespace topdown::testing
