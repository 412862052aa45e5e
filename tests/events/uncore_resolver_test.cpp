// A server's uncore units are registered box by box (uncore_cha_0,
// uncore_cha_1, ...): an event of the unit resolves to the whole family,
// each box's perf type and the CPUs (one per socket) it counts on, packed
// with the boxes' own format (tests/data/sysfs-spr: 3 CHAs of types 20-22,
// 2 memory controllers of types 23-24, one UPI and one M2M box, 2 IIO boxes
// of types 27-28, cpumask 0,4).
#include <gtest/gtest.h>

#include <filesystem>

#include "../support/temp_tree.h"
#include "events/model_resolver.h"
#include "model/model.h"
#include "resolver_fixture.h"

namespace topdown::events {
namespace {

const std::filesystem::path kModels = std::filesystem::path(TOPDOWN_SOURCE_DIR) / "models";
const std::filesystem::path kSprDevices =
    std::filesystem::path(TOPDOWN_SOURCE_DIR) / "tests/data/sysfs-spr/sys/bus/event_source/devices";

// The spr model's events, on the fixture's PMUs or (empty path) on a machine without them.
Resolver spr_resolver(const std::filesystem::path& devices) {
  const model::Model model = model::select_model(kModels, {}, "spr");
  ResolverConfig config = resolver_config(model, testing::make_cpu(cpu::Vendor::Intel, 6, 0x8F));
  config.pfm_pmu = "-";
  config.sysfs_devices = devices;
  return Resolver(config);
}

// perfmon's UNC_CHA_TOR_OCCUPANCY.IA_MISS_DRD: event 0x36, UMask 0x01,
// UMaskExt 0xc817fe; the CHA format puts the unit mask in bits 8-15 and its
// extension from bit 32.
constexpr uint64_t kTorOccupancyConfig = 0x36 | (0x01ull << 8) | (0xc817feull << 32);

TEST(UncoreResolver, AUnitsEventCountsOnEveryBoxOfTheFamily) {
  const Resolver resolver = spr_resolver(kSprDevices);
  const Encoding occupancy = resolver.resolve("UNC_CHA_TOR_OCCUPANCY.IA_MISS_DRD");
  EXPECT_EQ(occupancy.pmu, "uncore_cha");
  EXPECT_TRUE(occupancy.uncore);
  EXPECT_EQ(occupancy.type, 20u);
  EXPECT_EQ(occupancy.box_types, (std::vector<uint32_t>{20, 21, 22}));
  EXPECT_EQ(occupancy.uncore_cpus, (std::vector<int>{0, 4}));
  EXPECT_EQ(occupancy.config, kTorOccupancyConfig);
  EXPECT_EQ(occupancy.counter_mask, 0x1u);  // perfmon: counter 0 only
  const Encoding reads = resolver.resolve("UNC_M_CAS_COUNT.RD");
  EXPECT_EQ(reads.pmu, "uncore_imc");
  EXPECT_EQ(reads.box_types, (std::vector<uint32_t>{23, 24}));
  EXPECT_EQ(reads.config, 0x05u | (0xcfu << 8));
  EXPECT_EQ(reads.counter_mask, 0xfu);
}

TEST(UncoreResolver, ACounterMaskIsTheUnitsThreshold) {
  const Resolver resolver = spr_resolver(kSprDevices);
  const Encoding cycles = resolver.resolve("UNC_CHA_TOR_OCCUPANCY.IA_MISS_DRD:c1");
  EXPECT_EQ(cycles.config, kTorOccupancyConfig | (1ull << 24));
}

TEST(UncoreResolver, OneUnitCountsOnTheFirstBoxOnly) {
  const Resolver resolver = spr_resolver(kSprDevices);
  const Encoding clock = resolver.resolve("UNC_CHA_CLOCKTICKS:one_unit");
  EXPECT_EQ(clock.pmu, "uncore_cha_0");
  EXPECT_EQ(clock.type, 20u);
  EXPECT_EQ(clock.box_types, (std::vector<uint32_t>{20}));
  EXPECT_EQ(clock.config, 0x01u);
  EXPECT_EQ(clock.perf_spelling(), "uncore_cha_0/config=0x1,name=UNC_CHA_CLOCKTICKS:one_unit/");
}

TEST(UncoreResolver, PerfIsToldTheFamilySoItCountsEveryBox) {
  const Resolver resolver = spr_resolver(kSprDevices);
  EXPECT_EQ(resolver.resolve("UNC_CHA_TOR_OCCUPANCY.IA_MISS_DRD").perf_spelling(),
            "uncore_cha/config=0xc817fe00000136,name=UNC_CHA_TOR_OCCUPANCY.IA_MISS_DRD/");
}

TEST(UncoreResolver, AnotherMachinesUncoreEncodesAsItsBoxesWould) {
  // --cpu spr elsewhere (an import, --print-perf): no such PMU here, but the
  // same bits as the fixture's boxes give, so the spelling counts the same.
  const topdown::testing::TempTree empty;
  const Resolver resolver = spr_resolver(empty.root());
  const Encoding occupancy = resolver.resolve("UNC_CHA_TOR_OCCUPANCY.IA_MISS_DRD:c1");
  EXPECT_EQ(occupancy.type, Encoding::kAbsentPmu);
  EXPECT_TRUE(occupancy.box_types.empty());
  EXPECT_EQ(occupancy.config, kTorOccupancyConfig | (1ull << 24));
  EXPECT_TRUE(occupancy.uncore);
  EXPECT_EQ(resolver.resolve("UNC_CHA_CLOCKTICKS:one_unit").pmu, "uncore_cha_0");
}

// perfmon's IIO events name the ports and functions they count (PortMask,
// FCMask): the kernel's ch_mask and fc_mask terms, at config bits 36 and 48
// from Ice Lake server on.
constexpr uint64_t kIioReadsAllPorts = 0x83 | (0x04ull << 8) | (0xffull << 36) | (0x7ull << 48);

TEST(UncoreResolver, IioMasksArePackedWithTheBoxesFormat) {
  const Encoding reads = spr_resolver(kSprDevices).resolve("UNC_IIO_DATA_REQ_OF_CPU.MEM_READ.ALL_PARTS");
  EXPECT_EQ(reads.pmu, "uncore_iio");
  EXPECT_EQ(reads.box_types, (std::vector<uint32_t>{27, 28}));
  EXPECT_EQ(reads.uncore_cpus, (std::vector<int>{0, 4}));
  EXPECT_EQ(reads.config, kIioReadsAllPorts);
  EXPECT_EQ(reads.counter_mask, 0x3u);
}

Encoding offline(const std::string& model_name, std::string_view event) {
  const model::Model model = model::select_model(kModels, {}, model_name);
  return Resolver(offline_resolver_config(model)).resolve(event);
}

TEST(UncoreResolver, AnotherMachinesIioMasksSitWhereItsGenerationHasThem) {
  EXPECT_EQ(offline("spr", "UNC_IIO_DATA_REQ_OF_CPU.MEM_READ.ALL_PARTS").config, kIioReadsAllPorts);
  // Skylake server: eight port bits from 36, the function mask from 44;
  // perfmon's PART2 is port mask 0x04, function mask 0x07.
  EXPECT_EQ(offline("skx", "UNC_IIO_DATA_REQ_OF_CPU.MEM_READ.PART2").config,
            0x83 | (0x04ull << 8) | (0x04ull << 36) | (0x7ull << 44));
  // Granite Rapids' list repeats the masks in UMaskExt 0x70ff0, i.e. from config bit 32.
  EXPECT_EQ(offline("gnr", "UNC_IIO_DATA_REQ_OF_CPU.MEM_READ.ALL_PARTS").config,
            0x83 | (0x04ull << 8) | (0x70ff0ull << 32));
}

}  // namespace
}  // namespace topdown::events
