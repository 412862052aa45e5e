// The client system agent's PMUs differ per generation (intel_extra.ini):
// Meteor Lake registers its arbiter as two boxes (uncore_arb_0, uncore_arb_1)
// with a 6-bit "threshold" term and its uncore clock as uncore_cncu. The
// sysfs tree here is laid out as that kernel registers them.
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

Resolver mtl_resolver(const topdown::testing::TempTree& tree) {
  const model::Model model = model::select_model(kModels, {}, "mtl");
  ResolverConfig config = resolver_config(model, testing::make_cpu(cpu::Vendor::Intel, 6, 0xAA));
  config.pfm_pmu = "-";
  config.sysfs_devices = tree.root() / "devices";
  return Resolver(config);
}

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

TEST(ClientUncoreResolver, AThresholdBeyondTheTermsSixBitsIsRejected) {
  const topdown::testing::TempTree tree;
  write_pmu(tree, "uncore_arb_0", 30, true);
  EXPECT_THROW(mtl_resolver(tree).resolve("UNC_ARB_DAT_OCCUPANCY.RD:c64"), Error);
}

}  // namespace
}  // namespace topdown::events
