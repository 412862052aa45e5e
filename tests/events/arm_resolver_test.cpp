// An Arm model's raw events open on the Arm core PMU of the counted cores,
// with its perf type and the Arm event code as config.
#include <gtest/gtest.h>

#include <filesystem>

#include "cpu/cpu_info.h"
#include "events/model_resolver.h"
#include "model/model.h"

namespace topdown::events {
namespace {

const std::filesystem::path kModels = std::filesystem::path(TOPDOWN_SOURCE_DIR) / "models";
const std::filesystem::path kData = std::filesystem::path(TOPDOWN_SOURCE_DIR) / "tests/data";

// The resolver of `model_name` on the fake host `fixture`, as detect() sees it.
Resolver fixture_resolver(const std::string& fixture, const std::string& model_name) {
  const std::filesystem::path root = kData / fixture;
  const cpu::CpuInfo cpu = cpu::detect(root / "sys", root / "proc");
  ResolverConfig config = resolver_config(model::select_model(kModels, cpu.id, model_name), cpu);
  config.sysfs_devices = root / "sys/bus/event_source/devices";
  return Resolver(config);
}

// Arm's architected event numbers.
constexpr uint64_t kCpuCycles = 0x11;
constexpr uint64_t kInstRetired = 0x08;

TEST(ArmResolver, NeoverseV2EventsOpenOnArmv8Pmuv3) {
  const Resolver resolver = fixture_resolver("sysfs-neoverse-v2", "");
  const Encoding cycles = resolver.resolve("CPU_CYCLES");
  EXPECT_EQ(cycles.pmu, "armv8_pmuv3_0");
  EXPECT_EQ(cycles.type, 10u);
  EXPECT_EQ(cycles.config, kCpuCycles);
  EXPECT_FALSE(cycles.uncore);
  EXPECT_EQ(resolver.resolve("INST_RETIRED").config, kInstRetired);
  // A raw spelling and the generic cpu/.../ one mean the same PMU.
  const Encoding raw = resolver.resolve("r3f");
  EXPECT_EQ(raw.type, 10u);
  EXPECT_EQ(raw.config, 0x3fu);
  EXPECT_EQ(resolver.resolve("cpu/event=0x8/").type, 10u);
  EXPECT_EQ(resolver.resolve("cpu/event=0x8/").config, kInstRetired);
  // The PMU's own named events.
  EXPECT_EQ(resolver.resolve("cpu_cycles").config, kCpuCycles);
  // Another PMU keeps its type.
  EXPECT_EQ(resolver.resolve("arm_cmn_0/config=0x1/").type, 12u);
}

TEST(ArmResolver, BigLittleModelCountsOnItsCoreKindsPmu) {
  const Encoding big = fixture_resolver("sysfs-biglittle", "arm-c1-ultra").resolve("INST_RETIRED");
  EXPECT_EQ(big.pmu, "armv8_pmuv3_1");
  EXPECT_EQ(big.type, 11u);
  EXPECT_EQ(big.config, kInstRetired);
  const Encoding little = fixture_resolver("sysfs-biglittle", "arm-c1-pro").resolve("INST_RETIRED");
  EXPECT_EQ(little.pmu, "armv8_pmuv3_0");
  EXPECT_EQ(little.type, 10u);
  EXPECT_EQ(little.config, kInstRetired);
}

// Arm's perf has no "cpu" PMU: without a sysfs to name it, the core PMU is
// the one ACPI servers register, and the cycles its cycle counter's.
TEST(ArmResolver, AnotherMachinesArmModelUsesTheRawTypeOnArmv8Pmuv3) {
  const Resolver resolver(offline_resolver_config(model::select_model(kModels, {}, "neoverse-v2")));
  const Encoding cycles = resolver.resolve("CPU_CYCLES");
  EXPECT_EQ(cycles.type, 4u);  // PERF_TYPE_RAW
  EXPECT_EQ(cycles.config, kCpuCycles);
  EXPECT_EQ(cycles.pmu, "armv8_pmuv3_0");
  EXPECT_EQ(cycles.fixed_counter, 0);
  const Encoding mispredicts = resolver.resolve("BR_MIS_PRED");
  EXPECT_EQ(mispredicts.perf_spelling(), "armv8_pmuv3_0/config=0x10,name=BR_MIS_PRED/");
  EXPECT_FALSE(mispredicts.fixed_counter.has_value());
}

TEST(ArmResolver, AFixtureSysfsNamesItsOwnCorePmu) {
  const Encoding little = fixture_resolver("sysfs-biglittle", "arm-c1-pro").resolve("STALL_SLOT");
  EXPECT_EQ(little.perf_spelling(), "armv8_pmuv3_0/config=0x3f,name=STALL_SLOT/");
  const Encoding big = fixture_resolver("sysfs-biglittle", "arm-c1-ultra").resolve("STALL_SLOT");
  EXPECT_EQ(big.perf_spelling(), "armv8_pmuv3_1/config=0x3f,name=STALL_SLOT/");
}

}  // namespace
}  // namespace topdown::events
