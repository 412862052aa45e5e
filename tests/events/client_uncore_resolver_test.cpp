// The client system agent's PMUs differ per generation (intel_extra.ini):
// Meteor Lake registers its arbiter as two boxes (uncore_arb_0, uncore_arb_1)
// with a 6-bit "threshold" term and its uncore clock as uncore_cncu; Arrow
// Lake the same clock and two memory controllers (uncore_imc_0, _1) whose
// format has no unit mask; Lunar Lake its clock's unit as the MMIO box
// uncore_sncu. The sysfs trees here are laid out as the kernel registers them.
#include <gtest/gtest.h>

#include <filesystem>

#include "../support/temp_tree.h"
#include "common/error.h"
#include "events/model_resolver.h"
#include "model/model.h"
#include "resolver_fixture.h"

namespace topdown::events {
namespace {

const std::filesystem::path kModels = std::filesystem::path(TOPDOWN_SOURCE_DIR) / "models";

void write_pmu(const topdown::testing::TempTree& tree, const std::string& pmu, int type, bool programmable) {
  const std::string dir = "devices/" + pmu + "/";
  tree.write(dir + "type", std::to_string(type) + "\n");
  tree.write(dir + "cpumask", "0\n");
  tree.write(dir + "format/event", "config:0-7\n");
  if (!programmable) return;
  tree.write(dir + "format/umask", "config:8-15\n");
  tree.write(dir + "format/edge", "config:18\n");
  tree.write(dir + "format/inv", "config:23\n");
  tree.write(dir + "format/threshold", "config:24-29\n");
}

Resolver client_resolver(const topdown::testing::TempTree& tree, const std::string& model_name, unsigned cpu_model) {
  const model::Model model = model::select_model(kModels, {}, model_name);
  ResolverConfig config = resolver_config(model, testing::make_cpu(cpu::Vendor::Intel, 6, cpu_model));
  config.pfm_pmu = "-";
  config.sysfs_devices = tree.root() / "devices";
  return Resolver(config);
}

Resolver mtl_resolver(const topdown::testing::TempTree& tree) { return client_resolver(tree, "mtl", 0xAA); }

TEST(ClientUncoreResolver, MeteorLakesArbiterCountsOnBothBoxesWithItsThresholdTerm) {
  const topdown::testing::TempTree tree;
  write_pmu(tree, "uncore_arb_0", 30, true);
  write_pmu(tree, "uncore_arb_1", 31, true);
  write_pmu(tree, "uncore_cncu", 32, false);
  const Resolver resolver = mtl_resolver(tree);
  // perfmon's meteorlake_uncore.json: UNC_ARB_DAT_OCCUPANCY.RD is event 0x85, umask 0x02, counter 0.
  const Encoding busy = resolver.resolve("UNC_ARB_DAT_OCCUPANCY.RD:c1");
  EXPECT_EQ(busy.pmu, "uncore_arb");
  EXPECT_TRUE(busy.uncore);
  EXPECT_EQ(busy.box_types, (std::vector<uint32_t>{30, 31}));
  EXPECT_EQ(busy.config, 0x85u | (0x02u << 8) | (1u << 24));
  EXPECT_EQ(busy.counter_mask, 0x1u);
  const Encoding clock = resolver.resolve("UNC_CLOCK.SOCKET");
  EXPECT_EQ(clock.pmu, "uncore_cncu");
  EXPECT_EQ(clock.type, 32u);
  EXPECT_EQ(clock.config, 0xffu);
}

TEST(ClientUncoreResolver, TheThresholdTermHasSixBits) {
  const topdown::testing::TempTree tree;
  write_pmu(tree, "uncore_arb_0", 30, true);
  const Resolver resolver = mtl_resolver(tree);
  EXPECT_EQ(resolver.resolve("UNC_ARB_DAT_OCCUPANCY.RD:c63").config, 0x85u | (0x02u << 8) | (63u << 24));
  EXPECT_THROW(resolver.resolve("UNC_ARB_DAT_OCCUPANCY.RD:c64"), Error);
}

TEST(ClientUncoreResolver, ArrowLakesMemoryControllersCountTheirTotalDataOnEveryBox) {
  const topdown::testing::TempTree tree;
  for (const auto& [pmu, type] : {std::pair{"uncore_imc_0", 40}, std::pair{"uncore_imc_1", 41}}) {
    write_pmu(tree, pmu, type, false);
    tree.write(std::string("devices/") + pmu + "/format/chmask", "config:8-11\n");
  }
  write_pmu(tree, "uncore_imc_free_running_0", 42, false);  // another family
  write_pmu(tree, "uncore_cncu", 43, false);
  const Resolver resolver = client_resolver(tree, "arl", 0xC6);
  // perfmon's arrowlake_uncore.json: UNC_M_TOTAL_DATA is event 0x3C on counters 0-4.
  const Encoding data = resolver.resolve("UNC_M_TOTAL_DATA");
  EXPECT_EQ(data.pmu, "uncore_imc");
  EXPECT_EQ(data.box_types, (std::vector<uint32_t>{40, 41}));
  EXPECT_EQ(data.config, 0x3Cu);
  EXPECT_EQ(data.counter_mask, 0x1Fu);
  EXPECT_EQ(resolver.resolve("UNC_CLOCK.SOCKET").type, 43u);
}

TEST(ClientUncoreResolver, LunarLakesClockCountsOnTheSncuBox) {
  const topdown::testing::TempTree tree;
  write_pmu(tree, "uncore_sncu", 44, true);
  const Resolver resolver = client_resolver(tree, "lnl", 0xBD);
  // Intel's corrected lunarlake_uncore.json: UNC_CLOCK.SOCKET, unit SANTA, event 0x00, umask 0x01.
  const Encoding clock = resolver.resolve("UNC_CLOCK.SOCKET");
  EXPECT_EQ(clock.pmu, "uncore_sncu");
  EXPECT_EQ(clock.type, 44u);
  EXPECT_TRUE(clock.uncore);
  EXPECT_EQ(clock.config, 0x01u << 8);
}

}  // namespace
}  // namespace topdown::events
