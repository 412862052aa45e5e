// The copies of virtual machines' /sys and /proc (tests/data/sysfs-vm-*):
// their CPU from proc/cpuinfo, the hypervisor flag, the NMI watchdog, and
// what their core PMU's sysfs says it counts.
#include <gtest/gtest.h>

#include <filesystem>

#include "../support/temp_tree.h"
#include "cpu/cpu_info.h"

namespace topdown::cpu {
namespace {

using topdown::testing::TempTree;

const std::filesystem::path kData = std::filesystem::path(TOPDOWN_SOURCE_DIR) / "tests/data";

CpuInfo another_machine(const std::string& fixture) {
  return detect(kData / fixture / "sys", kData / fixture / "proc", CounterCheck::Skip);
}

TEST(VmDetect, KvmGuestOnSapphireRapids) {
  const CpuInfo info = another_machine("sysfs-vm-kvm-spr");
  EXPECT_TRUE(info.another_machine);
  EXPECT_EQ(info.id.vendor, Vendor::Intel);
  EXPECT_EQ(info.id.vendor_string, "GenuineIntel");
  EXPECT_EQ(info.id.family, 6u);
  EXPECT_EQ(info.id.model, 0x8Fu);
  EXPECT_EQ(info.id.stepping, 8u);
  EXPECT_EQ(info.id.brand, "Intel(R) Xeon(R) Platinum 8480+");
  EXPECT_TRUE(info.hypervisor);
  EXPECT_TRUE(info.nmi_watchdog);
  EXPECT_FALSE(info.topdown_metrics);
  EXPECT_EQ(info.online_cpus, 8);
  // Intel's counter count is cpuid's alone: unknown from a copy.
  EXPECT_EQ(info.reported_counters, 0);
  EXPECT_EQ(info.working_counters, std::nullopt);
  const PmuInfo* core = info.find_pmu("cpu");
  ASSERT_NE(core, nullptr);
  EXPECT_TRUE(core->has_format_term("frontend"));
  EXPECT_TRUE(core->has_format_term("ldlat"));
  EXPECT_FALSE(core->has_format_term("thresh"));
  EXPECT_EQ(core->pmu_name, "sapphire_rapids");
  EXPECT_EQ(core->max_precise, 0);
  EXPECT_EQ(info.find_pmu("uncore_imc_0"), nullptr);
}

TEST(VmDetect, ArchitecturalEventsOnlyGuest) {
  const CpuInfo info = another_machine("sysfs-vm-arch-only");
  EXPECT_EQ(info.id.model, 0x8Fu);
  EXPECT_FALSE(info.nmi_watchdog);
  const PmuInfo* core = info.find_pmu("cpu");
  ASSERT_NE(core, nullptr);
  EXPECT_EQ(core->pmu_name, "generic_arch_v2+");
  EXPECT_FALSE(core->has_format_term("frontend"));
  EXPECT_TRUE(core->has_format_term("cmask"));
}

TEST(VmDetect, GuestWithoutTheExtraTermsKeepsPerfMetrics) {
  const CpuInfo info = another_machine("sysfs-vm-no-terms");
  EXPECT_EQ(info.id.model, 0x6Au);
  EXPECT_TRUE(info.topdown_metrics);
  const PmuInfo* core = info.find_pmu("cpu");
  ASSERT_NE(core, nullptr);
  for (const char* term : {"frontend", "offcore_rsp", "ldlat"}) EXPECT_FALSE(core->has_format_term(term)) << term;
  EXPECT_EQ(core->max_precise, std::nullopt);
}

TEST(VmDetect, Zen4GuestCountersFromItsFlags) {
  const CpuInfo info = another_machine("sysfs-vm-zen4");
  EXPECT_EQ(info.id.vendor, Vendor::Amd);
  EXPECT_EQ(info.id.family, 0x19u);
  EXPECT_EQ(info.id.model, 0x11u);
  EXPECT_TRUE(info.hypervisor);
  // perfctr_core without perfmon_v2: the six legacy counters.
  EXPECT_EQ(info.reported_counters, 6);
  EXPECT_EQ(info.find_pmu("amd_l3"), nullptr);
}

TEST(ProcCpuinfo, AmdWithoutTheCoreCounterExtensionHasFour) {
  TempTree tree;
  tree.write("cpuinfo",
             "processor\t: 0\nvendor_id\t: AuthenticAMD\ncpu family\t: 23\nmodel\t\t: 1\nflags\t\t: fpu tsc\n");
  const auto cpuinfo = read_proc_cpuinfo(tree.root() / "cpuinfo");
  ASSERT_TRUE(cpuinfo.has_value());
  EXPECT_EQ(cpuinfo->id.family, 23u);
  EXPECT_EQ(general_counters(*cpuinfo), 4);
  EXPECT_EQ(cpuinfo->flags.count("hypervisor"), 0u);
}

TEST(ProcCpuinfo, AFileWithoutAVendorSaysNothing) {
  TempTree tree;
  tree.write("cpuinfo", "processor\t: 0\nCPU implementer\t: 0x41\n");
  EXPECT_EQ(read_proc_cpuinfo(tree.root() / "cpuinfo"), std::nullopt);
  EXPECT_EQ(read_proc_cpuinfo(tree.root() / "absent"), std::nullopt);
}

// This machine's own tree: its CPU is cpuid's, whatever a cpuinfo says.
TEST(VmDetect, ThisMachineKeepsCpuid) {
  const CpuInfo info = detect(kData / "sysfs-vm-zen4" / "sys", kData / "sysfs-vm-zen4" / "proc", CounterCheck::Run);
  EXPECT_FALSE(info.another_machine);
  EXPECT_EQ(info.id.brand, read_cpuid().brand);
}

}  // namespace
}  // namespace topdown::cpu
