// A hybrid CPU's core events open on the PMU of the model's core type:
// cpu_core for the P-core tree, cpu_atom for the E-core tree.
#include <gtest/gtest.h>

#include <filesystem>

#include "common/error.h"
#include "cpu/cpu_info.h"
#include "events/model_resolver.h"
#include "model/model.h"

namespace topdown::events {
namespace {

const std::filesystem::path kModels = std::filesystem::path(TOPDOWN_SOURCE_DIR) / "models";
const std::filesystem::path kAdlSysfs = std::filesystem::path(TOPDOWN_SOURCE_DIR) / "tests/data/sysfs-adl/sys";
// Lunar Lake's: its cpu_core PMU has the unit mask's extension, umask2.
const std::filesystem::path kLnlSysfs = std::filesystem::path(TOPDOWN_SOURCE_DIR) / "tests/data/sysfs-lnl/sys";

// This machine's resolver for `model_name` on a CPU of `cpu_model`, with a
// sysfs fixture as its PMUs.
Resolver fixture_resolver(const std::string& model_name, int cpu_model, const std::filesystem::path& sysfs) {
  const model::Model model = model::select_model(kModels, {}, model_name);
  cpu::CpuInfo cpu;
  cpu.id.vendor = cpu::Vendor::Intel;
  cpu.id.family = 6;
  cpu.id.model = cpu_model;
  ResolverConfig config = resolver_config(model, cpu);
  config.sysfs_devices = sysfs / "bus/event_source/devices";
  return Resolver(config);
}

// The Alder Lake-like fixture: cpu_core type 4, cpu_atom type 8.
Resolver adl_resolver(const std::string& model_name) { return fixture_resolver(model_name, 0x97, kAdlSysfs); }

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

TEST(HybridResolver, LunarLakesUnitMaskExtensionGoesToUmask2) {
  const Resolver resolver = fixture_resolver("lnl", 0xBD, kLnlSysfs);
  // Intel's list: event 0xc5, UMask 0x00, UMaskExt 0x01; without the
  // extension it would be every mispredicted branch.
  const Encoding forward = resolver.resolve("BR_MISP_RETIRED.COND_TAKEN_FWD");
  EXPECT_EQ(forward.pmu, "cpu_core");
  EXPECT_EQ(forward.config, 0xc5u | 0x01ull << 40);
  EXPECT_NE(forward.config, resolver.resolve("BR_MISP_RETIRED.ALL_BRANCHES").config);
  EXPECT_EQ(resolver.resolve("MEM_LOAD_RETIRED.L1_HIT").config, 0xd1u | 0x01u << 8 | 0x01ull << 40);
  // Not NEAR_CALL's encoding any more.
  EXPECT_NE(resolver.resolve("BR_INST_RETIRED.COND_TAKEN_FWD").config,
            resolver.resolve("BR_INST_RETIRED.NEAR_CALL").config);
  // Modifiers keep the extension.
  EXPECT_EQ(resolver.resolve("BR_MISP_RETIRED.COND_TAKEN_FWD:c1").config, 0xc5u | 1u << 24 | 0x01ull << 40);
}

TEST(HybridResolver, AnEventWhoseFieldThePmuLacksIsRefusedAlone) {
  // The Lunar Lake model on PMUs without umask2 (an older kernel's): the
  // events that need it are refused in one line naming the event, the field
  // and the PMU; the model's other events still resolve.
  const Resolver resolver = fixture_resolver("lnl", 0xBD, kAdlSysfs);
  try {
    resolver.resolve("BR_MISP_RETIRED.COND_TAKEN_FWD");
    FAIL() << "resolved without umask2";
  } catch (const Error& error) {
    const std::string message = error.what();
    EXPECT_EQ(message.find('\n'), std::string::npos);
    EXPECT_EQ(message.rfind("event BR_MISP_RETIRED.COND_TAKEN_FWD needs the field umask2 of PMU cpu_core,", 0), 0u)
        << message;
  }
  EXPECT_FALSE(resolver.knows("MEM_LOAD_RETIRED.L1_HIT:c1"));
  EXPECT_EQ(resolver.resolve("BR_MISP_RETIRED.ALL_BRANCHES").config, 0xc5u);
}

}  // namespace
}  // namespace topdown::events
