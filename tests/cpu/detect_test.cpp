#include <gtest/gtest.h>

#include <filesystem>

#include "../support/temp_tree.h"
#include "common/error.h"
#include "cpu/cpu_info.h"
#include "cpu/cpuid_decode.h"

namespace topdown::cpu {
namespace {

using topdown::testing::TempTree;

bool host_has_core_pmu() {
  return std::filesystem::exists("/sys/bus/event_source/devices/cpu") ||
         std::filesystem::exists("/sys/bus/event_source/devices/cpu_core");
}

void expect_host_cpuid(const CpuInfo& info) {
  const CpuId host = read_cpuid();
  EXPECT_EQ(info.id.vendor, host.vendor);
  EXPECT_EQ(info.id.vendor_string, host.vendor_string);
  EXPECT_EQ(info.id.family, host.family);
  EXPECT_EQ(info.id.model, host.model);
  EXPECT_EQ(info.id.stepping, host.stepping);
  EXPECT_EQ(info.id.brand, host.brand);
  EXPECT_EQ(info.reported_counters, general_counters(host.vendor, read_counter_leaves()));
}

TEST(Detect, ReadsEveryFieldFromTheFakeTree) {
  TempTree tree;
  tree.write("sys/devices/system/cpu/online", "0-3,6\n");
  tree.write("sys/devices/system/cpu/smt/active", "1\n");
  tree.write("sys/bus/event_source/devices/software/type", "1\n");
  tree.write("sys/bus/event_source/devices/msr/type", "9\n");
  tree.write("sys/bus/event_source/devices/broken/type", "x\n");
  tree.mkdir("sys/bus/event_source/devices/typeless");
  tree.write("proc/sys/kernel/perf_event_paranoid", "2\n");

  const CpuInfo info = detect(tree.root() / "sys", tree.root() / "proc");
  expect_host_cpuid(info);
  EXPECT_EQ(info.online_cpus, 5);
  EXPECT_TRUE(info.smt_enabled);
  ASSERT_EQ(info.pmus.size(), 2u);
  EXPECT_EQ(info.pmus[0].name, "msr");
  EXPECT_EQ(info.pmus[0].type, 9);
  EXPECT_EQ(info.pmus[1].name, "software");
  EXPECT_EQ(info.pmus[1].type, 1);
  EXPECT_EQ(info.perf_event_paranoid, "2");
  EXPECT_FALSE(info.has_core_pmu());
  EXPECT_EQ(info.find_pmu("cpu"), nullptr);
  ASSERT_NE(info.find_pmu("msr"), nullptr);
  EXPECT_EQ(info.find_pmu("msr")->type, 9);
  // No core PMU registered (like a VM without a virtual PMU): no probe.
  EXPECT_EQ(info.working_counters, std::nullopt);
  EXPECT_FALSE(info.topdown_metrics);
}

TEST(Detect, TopdownMetricEventsOfTheKernel) {
  TempTree tree;
  // Hybrid Intel names its big-core PMU cpu_core; no type file keeps the
  // counter probe out of this test.
  tree.write("sys/bus/event_source/devices/cpu_core/events/topdown-retiring", "event=0x00,umask=0x80\n");
  EXPECT_TRUE(detect(tree.root() / "sys", tree.root() / "proc").topdown_metrics);
}

TEST(Detect, SmtFallsBackToThreadSiblingsOfCpu0) {
  TempTree tree;
  tree.write("sys/devices/system/cpu/cpu0/topology/thread_siblings_list", "0,4\n");
  EXPECT_TRUE(detect(tree.root() / "sys", tree.root() / "proc").smt_enabled);
  tree.write("sys/devices/system/cpu/cpu0/topology/thread_siblings_list", "0\n");
  EXPECT_FALSE(detect(tree.root() / "sys", tree.root() / "proc").smt_enabled);
  tree.write("sys/devices/system/cpu/smt/active", "0\n");
  tree.write("sys/devices/system/cpu/cpu0/topology/thread_siblings_list", "0,4\n");
  EXPECT_FALSE(detect(tree.root() / "sys", tree.root() / "proc").smt_enabled);
}

// Two packages of two cores with two threads each (CPU n and n+4 share a
// core), as the kernel numbers an SMT machine: a core id counts once.
void write_topology(const TempTree& tree, int cpu, int package, int core) {
  const std::string dir = "sys/devices/system/cpu/cpu" + std::to_string(cpu) + "/topology/";
  tree.write(dir + "physical_package_id", std::to_string(package) + "\n");
  tree.write(dir + "core_id", std::to_string(core) + "\n");
}

TEST(Detect, CoresPerSocketAreEachPackagesDistinctCoreIds) {
  TempTree tree;
  tree.write("sys/devices/system/cpu/online", "0-7\n");
  for (int cpu = 0; cpu < 8; ++cpu) write_topology(tree, cpu, cpu % 4 < 2 ? 0 : 1, cpu % 2);
  const CpuInfo info = detect(tree.root() / "sys", tree.root() / "proc", CounterCheck::Skip);
  EXPECT_EQ(info.sockets, 2);
  EXPECT_EQ(info.cores_per_socket, 2);
}

TEST(Detect, CoresPerSocketAreUnknownWhenPackagesDifferOrCoreIdsAreMissing) {
  TempTree tree;
  tree.write("sys/devices/system/cpu/online", "0-2\n");
  write_topology(tree, 0, 0, 0);
  write_topology(tree, 1, 0, 1);
  write_topology(tree, 2, 1, 0);  // package 1 has one core online, package 0 two
  EXPECT_EQ(detect(tree.root() / "sys", tree.root() / "proc", CounterCheck::Skip).cores_per_socket, 0);
  tree.write("sys/devices/system/cpu/online", "0-1\n");
  EXPECT_EQ(detect(tree.root() / "sys", tree.root() / "proc", CounterCheck::Skip).cores_per_socket, 2);
  std::filesystem::remove(tree.root() / "sys/devices/system/cpu/cpu1/topology/core_id");
  const CpuInfo without_core_id = detect(tree.root() / "sys", tree.root() / "proc", CounterCheck::Skip);
  EXPECT_EQ(without_core_id.sockets, 1);
  EXPECT_EQ(without_core_id.cores_per_socket, 0);
}

TEST(Detect, MissingFilesLeaveDefaults) {
  TempTree tree;
  const CpuInfo info = detect(tree.root() / "sys", tree.root() / "proc");
  expect_host_cpuid(info);
  EXPECT_EQ(info.online_cpus, 0);
  EXPECT_FALSE(info.smt_enabled);
  EXPECT_TRUE(info.pmus.empty());
  EXPECT_EQ(info.perf_event_paranoid, "");
  EXPECT_EQ(info.working_counters, std::nullopt);
}

TEST(Detect, CorePmuInTheTreeRunsTheProbe) {
  TempTree tree;
  tree.write("sys/bus/event_source/devices/cpu/type", "4\n");
  const CpuInfo info = detect(tree.root() / "sys", tree.root() / "proc");
  EXPECT_TRUE(info.has_core_pmu());
  // The probe opens real counters, so its answer depends on the host.
  if (host_has_core_pmu() && info.reported_counters > 0) {
    ASSERT_TRUE(info.working_counters.has_value());
    EXPECT_GE(*info.working_counters, 1);
    EXPECT_LE(*info.working_counters, info.reported_counters);
  } else {
    EXPECT_EQ(info.working_counters, std::nullopt);
  }
}

TEST(Detect, HybridCorePmusWithTheirTypesAndCpus) {
  // An Alder Lake-like tree: P-cores 0-7 on cpu_core (type 4), E-cores 8-15
  // on cpu_atom (type 8).
  const std::filesystem::path fixture = std::filesystem::path(TOPDOWN_SOURCE_DIR) / "tests/data/sysfs-adl";
  const CpuInfo info = detect(fixture / "sys", fixture / "proc");
  EXPECT_EQ(info.online_cpus, 16);
  EXPECT_TRUE(info.has_core_pmu());
  EXPECT_TRUE(info.topdown_metrics);
  const std::vector<PmuInfo> core_types = info.hybrid_core_pmus();
  ASSERT_EQ(core_types.size(), 2u);
  EXPECT_EQ(core_types[0].name, "cpu_atom");
  EXPECT_EQ(core_types[0].type, 8);
  EXPECT_EQ(core_types[0].cpus, (std::vector<int>{8, 9, 10, 11, 12, 13, 14, 15}));
  EXPECT_EQ(core_types[1].name, "cpu_core");
  EXPECT_EQ(core_types[1].type, 4);
  EXPECT_EQ(core_types[1].cpus, (std::vector<int>{0, 1, 2, 3, 4, 5, 6, 7}));
  // PMUs without a cpus file count everywhere: not a core type.
  ASSERT_NE(info.find_pmu("msr"), nullptr);
  EXPECT_TRUE(info.find_pmu("msr")->cpus.empty());
}

TEST(IndexList, FormatsRunsAsRangesAndReadsBack) {
  EXPECT_EQ(format_index_list({0, 1, 2, 3, 6}), "0-3,6");
  EXPECT_EQ(format_index_list({8}), "8");
  EXPECT_EQ(format_index_list({}), "");
  EXPECT_EQ(format_index_list({1, 3, 4, 9, 10, 11}), "1,3-4,9-11");
  const std::vector<int> cpus = {0, 2, 3, 4, 7, 8};
  EXPECT_EQ(parse_index_list(format_index_list(cpus), "test"), cpus);
}

TEST(Detect, OneKindOfCoreIsNotHybrid) {
  TempTree tree;
  tree.write("sys/bus/event_source/devices/software/type", "1\n");
  tree.write("sys/bus/event_source/devices/uncore_imc_0/type", "12\n");
  tree.write("sys/bus/event_source/devices/uncore_imc_0/cpumask", "0\n");
  EXPECT_TRUE(detect(tree.root() / "sys", tree.root() / "proc").hybrid_core_pmus().empty());
}

TEST(Detect, BadCpusListOfAPmuNamesTheFile) {
  TempTree tree;
  tree.write("sys/bus/event_source/devices/cpu_atom/type", "8\n");
  tree.write("sys/bus/event_source/devices/cpu_atom/cpus", "8-x\n");
  try {
    detect(tree.root() / "sys", tree.root() / "proc");
    FAIL() << "a cpus file that is not a list was accepted";
  } catch (const Error& error) {
    EXPECT_NE(std::string(error.what()).find("cpu_atom/cpus"), std::string::npos) << error.what();
  }
}

TEST(ProbeWorkingCounters, NoCandidatesMeansNoAnswer) { EXPECT_EQ(probe_working_counters(0), std::nullopt); }

TEST(ProbeWorkingCounters, CountsOnlyWhereAPmuExists) {
  const int reported = general_counters(read_cpuid().vendor, read_counter_leaves());
  const auto working = probe_working_counters(reported);
  if (!host_has_core_pmu()) {
    // This VM has no PMU: perf_event_open of the first counter fails.
    EXPECT_EQ(working, std::nullopt);
    return;
  }
  ASSERT_TRUE(working.has_value()) << "a core PMU exists but the probe could not open a counter "
                                      "(perf_event_paranoid too high?)";
  EXPECT_GE(*working, 1);
  EXPECT_LE(*working, reported);
}

}  // namespace
}  // namespace topdown::cpu
