// A hybrid CPU's core events open on the PMU of the model's core type:
// cpu_core for the P-core tree, cpu_atom for the E-core tree.
#include <gtest/gtest.h>

#include <filesystem>

#include "cpu/cpu_info.h"
#include "events/model_resolver.h"
#include "model/model.h"

namespace topdown::events {
namespace {

const std::filesystem::path kModels = std::filesystem::path(TOPDOWN_SOURCE_DIR) / "models";
const std::filesystem::path kAdlSysfs = std::filesystem::path(TOPDOWN_SOURCE_DIR) / "tests/data/sysfs-adl/sys";

// This machine's resolver for `model_name`, with the Alder Lake-like sysfs
// fixture (cpu_core type 4, cpu_atom type 8) as its PMUs.
Resolver adl_resolver(const std::string& model_name) {
  const model::Model model = model::select_model(kModels, {}, model_name);
  cpu::CpuInfo cpu;
  cpu.id.vendor = cpu::Vendor::Intel;
  cpu.id.family = 6;
  cpu.id.model = 0x97;
  ResolverConfig config = resolver_config(model, cpu);
  config.sysfs_devices = kAdlSysfs / "bus/event_source/devices";
  return Resolver(config);
}

TEST(HybridResolver, ECoreEventsOpenOnCpuAtom) {
  const Resolver resolver = adl_resolver("adl_ecore");
  // A table event (cpu/event=0xc4,umask=0x00/) and a fixed-counter one.
  const Encoding branches = resolver.resolve("BR_INST_RETIRED.ALL_BRANCHES");
  EXPECT_EQ(branches.pmu, "cpu_atom");
  EXPECT_EQ(branches.type, 8u);
  EXPECT_EQ(branches.config, 0xc4u);
  EXPECT_FALSE(branches.uncore);
  EXPECT_EQ(branches.perf_spelling(), "cpu_atom/config=0xc4,name=BR_INST_RETIRED.ALL_BRANCHES/");
  const Encoding cycles = resolver.resolve("CPU_CLK_UNHALTED.CORE");
  EXPECT_EQ(cycles.pmu, "cpu_atom");
  EXPECT_EQ(cycles.type, 8u);
  EXPECT_EQ(cycles.fixed_counter, 1);
  // Raw events and the generic cpu/.../ spelling mean the model's core PMU.
  EXPECT_EQ(resolver.resolve("r3c").pmu, "cpu_atom");
  EXPECT_EQ(resolver.resolve("cpu/event=0x3c/").type, 8u);
  // Another PMU keeps its own type.
  EXPECT_EQ(resolver.resolve("msr/tsc/").type, 9u);
}

TEST(HybridResolver, PCoreEventsOpenOnCpuCore) {
  const Resolver resolver = adl_resolver("adl");
  const Encoding slots = resolver.resolve("TOPDOWN.SLOTS");
  EXPECT_EQ(slots.pmu, "cpu_core");
  EXPECT_EQ(slots.type, 4u);
  EXPECT_EQ(slots.fixed_counter, 3);
  EXPECT_EQ(resolver.resolve("INST_RETIRED.ANY").pmu, "cpu_core");
}

TEST(HybridResolver, AnotherMachinesECoreTreeIsSpelledForCpuAtom) {
  // --cpu adl_ecore elsewhere: no sysfs; the raw type, but perf's hybrid
  // spelling, so that --print-perf's commands count on the E-cores.
  const Resolver resolver(offline_resolver_config(model::select_model(kModels, {}, "adl_ecore")));
  const Encoding cycles = resolver.resolve("CPU_CLK_UNHALTED.CORE_P");
  EXPECT_EQ(cycles.pmu, "cpu_atom");
  EXPECT_EQ(cycles.type, 4u);  // PERF_TYPE_RAW
  EXPECT_EQ(cycles.perf_spelling().rfind("cpu_atom/config=0x3c,", 0), 0u) << cycles.perf_spelling();
}

}  // namespace
}  // namespace topdown::events
