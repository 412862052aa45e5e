// Arm CPUs named by their MIDRs, and their core PMUs, from fake sysfs trees.
#include <gtest/gtest.h>

#include <filesystem>

#include "../support/temp_tree.h"
#include "common/error.h"
#include "cpu/cpu_info.h"
#include "perf/open_failure.h"

namespace topdown::cpu {
namespace {

using topdown::testing::TempTree;

const std::filesystem::path kData = std::filesystem::path(TOPDOWN_SOURCE_DIR) / "tests/data";

void expect_id(const CpuId& id, unsigned implementer, unsigned part, unsigned variant, unsigned revision) {
  EXPECT_EQ(id.vendor, Vendor::Arm);
  EXPECT_EQ(id.family, implementer);
  EXPECT_EQ(id.model, part);
  EXPECT_EQ(id.stepping, variant * 16 + revision);
}

TEST(Midr, FieldsOfTheRegister) {
  // Neoverse V2 r0p1: implementer 'A' (0x41), architecture 0xF, part 0xD4F.
  expect_id(decode_midr(0x00000000410fd4f1), 0x41, 0xD4F, 0, 1);
  // Variant and revision are separate fields: r1p1 of part 0xD8C.
  expect_id(decode_midr(0x411fd8c1), 0x41, 0xD8C, 1, 1);
  // Another implementer (0xC0) with every field at its top.
  expect_id(decode_midr(0xC0FFFFFF), 0xC0, 0xFFF, 0xF, 0xF);
  EXPECT_EQ(decode_midr(0x411fd8c1).brand, "implementer 0x41 part 0xD8C r1p1");
}

TEST(ArmDetect, NeoverseV2Host) {
  const std::filesystem::path fixture = kData / "sysfs-neoverse-v2";
  const CpuInfo info = detect(fixture / "sys", fixture / "proc");
  expect_id(info.id, 0x41, 0xD4F, 0, 1);
  ASSERT_EQ(info.core_kinds.size(), 1u);
  expect_id(info.core_kinds[0].id, 0x41, 0xD4F, 0, 1);
  EXPECT_EQ(info.core_kinds[0].cpus, (std::vector<int>{0, 1, 2, 3}));
  EXPECT_EQ(info.online_cpus, 4);
  EXPECT_TRUE(info.has_core_pmu());
  EXPECT_FALSE(info.topdown_metrics);
  EXPECT_TRUE(info.hybrid_core_pmus().empty());
  const std::vector<PmuInfo> core_pmus = info.arm_core_pmus();
  ASSERT_EQ(core_pmus.size(), 1u);  // not arm_cmn_0 (a cpumask: uncore) nor software
  EXPECT_EQ(core_pmus[0].name, "armv8_pmuv3_0");
  EXPECT_EQ(core_pmus[0].type, 10);
  EXPECT_EQ(core_pmus[0].cpus, (std::vector<int>{0, 1, 2, 3}));
  const PmuInfo* of_kind = info.arm_core_pmu_of(info.core_kinds[0]);
  ASSERT_NE(of_kind, nullptr);
  EXPECT_EQ(of_kind->name, "armv8_pmuv3_0");
  // Nothing reports Arm's counters; the probe finds them, on this host's
  // PMU when there is one.
  EXPECT_EQ(info.reported_counters, 0);
  if (!perf::pmu_available()) {
    EXPECT_EQ(info.working_counters, std::nullopt);
  }
}

TEST(ArmDetect, BigLittleHostHasACoreKindAndPmuEach) {
  const std::filesystem::path fixture = kData / "sysfs-biglittle";
  const CpuInfo info = detect(fixture / "sys", fixture / "proc");
  ASSERT_EQ(info.core_kinds.size(), 2u);
  expect_id(info.core_kinds[0].id, 0x41, 0xD8B, 0, 0);  // C1-Pro
  EXPECT_EQ(info.core_kinds[0].cpus, (std::vector<int>{0, 1, 2, 3, 4, 5}));
  expect_id(info.core_kinds[1].id, 0x41, 0xD8C, 1, 1);  // C1-Ultra
  EXPECT_EQ(info.core_kinds[1].cpus, (std::vector<int>{6, 7}));
  // The big cores, numbered last, name the CPU.
  expect_id(info.id, 0x41, 0xD8C, 1, 1);
  ASSERT_EQ(info.arm_core_pmus().size(), 2u);
  const PmuInfo* little = info.arm_core_pmu_of(info.core_kinds[0]);
  const PmuInfo* big = info.arm_core_pmu_of(info.core_kinds[1]);
  ASSERT_NE(little, nullptr);
  ASSERT_NE(big, nullptr);
  EXPECT_EQ(little->name, "armv8_pmuv3_0");
  EXPECT_EQ(little->type, 10);
  EXPECT_EQ(big->name, "armv8_pmuv3_1");
  EXPECT_EQ(big->type, 11);
}

TEST(ArmDetect, NoPmuCoversCpusOfTwoPmus) {
  const std::filesystem::path fixture = kData / "sysfs-biglittle";
  const CpuInfo info = detect(fixture / "sys", fixture / "proc");
  EXPECT_EQ(info.arm_core_pmu_of({info.id, {5, 6}}), nullptr);
}

TEST(ArmDetect, CoreKindsOnlyFromCpuDirectories) {
  TempTree tree;
  tree.write("sys/devices/system/cpu/cpu10/regs/identification/midr_el1", "0x00000000410fd0c1\n");
  tree.write("sys/devices/system/cpu/cpu2/regs/identification/midr_el1", "0x00000000410fd0c1\n");
  // Not CPUs, although their names start so.
  tree.write("sys/devices/system/cpu/cpufreq/regs/identification/midr_el1", "0x00000000410fd4f1\n");
  tree.write("sys/devices/system/cpu/cpu/regs/identification/midr_el1", "0x00000000410fd4f1\n");
  // A CPU without the register (an older kernel) is skipped.
  tree.mkdir("sys/devices/system/cpu/cpu3");
  const std::vector<CoreKind> kinds = read_core_kinds(tree.root() / "sys");
  ASSERT_EQ(kinds.size(), 1u);
  expect_id(kinds[0].id, 0x41, 0xD0C, 0, 1);
  EXPECT_EQ(kinds[0].cpus, (std::vector<int>{2, 10}));
}

TEST(ArmDetect, NoMidrMeansNoCoreKinds) {
  TempTree tree;
  tree.write("sys/devices/system/cpu/online", "0-1\n");
  EXPECT_TRUE(read_core_kinds(tree.root() / "sys").empty());
  EXPECT_TRUE(detect(tree.root() / "sys", tree.root() / "proc").core_kinds.empty());
}

TEST(ArmDetect, BadMidrNamesTheFile) {
  TempTree tree;
  tree.write("sys/devices/system/cpu/cpu0/regs/identification/midr_el1", "0x41zz\n");
  try {
    read_core_kinds(tree.root() / "sys");
    FAIL() << "a MIDR file without a hex value was accepted";
  } catch (const Error& error) {
    EXPECT_NE(std::string(error.what()).find("cpu0/regs/identification/midr_el1"), std::string::npos) << error.what();
  }
}

TEST(ArmCorePmu, ByNameOrByItsCpuList) {
  EXPECT_TRUE(is_arm_core_pmu({"armv8_pmuv3_0", 10, {}}));
  EXPECT_TRUE(is_arm_core_pmu({"armv8_cortex_a55", 10, {0, 1, 2, 3}}));
  EXPECT_TRUE(is_arm_core_pmu({"armv9_pmuv3_0", 10, {}}));
  EXPECT_TRUE(is_arm_core_pmu({"apple_firestorm_pmu", 12, {4, 5, 6, 7}}));
  // Intel's hybrid core types and PMUs counting on no CPU list are not.
  EXPECT_FALSE(is_arm_core_pmu({"cpu_atom", 8, {8, 9}}));
  EXPECT_FALSE(is_arm_core_pmu({"arm_cmn_0", 12, {}}));
  EXPECT_FALSE(is_arm_core_pmu({"cpu", 4, {}}));
}

}  // namespace
}  // namespace topdown::cpu
