// The shipped Arm models are chosen by the MIDR of the CPU.
#include <gtest/gtest.h>

#include <filesystem>

#include "cpu/cpu_info.h"
#include "model/model.h"

namespace topdown::model {
namespace {

const std::filesystem::path kShippedModels = std::filesystem::path(TOPDOWN_SOURCE_DIR) / "models";

std::string model_for_midr(uint64_t midr) { return select_model(kShippedModels, cpu::decode_midr(midr)).name; }

TEST(ArmSelectModel, ByPartNumber) {
  EXPECT_EQ(model_for_midr(0x00000000410fd4f1), "neoverse-v2");
  EXPECT_EQ(model_for_midr(0x00000000410fd0c1), "neoverse-n1");
  EXPECT_EQ(model_for_midr(0x00000000411fd8c1), "arm-c1-ultra");
  EXPECT_EQ(model_for_midr(0x00000000410fd8b0), "arm-c1-pro");
}

TEST(ArmSelectModel, NeoverseN2ByRevision) {
  // Arm's data differs up to r0p2 and from r0p3 on.
  EXPECT_EQ(model_for_midr(0x00000000410fd490), "neoverse-n2-r0p2");
  EXPECT_EQ(model_for_midr(0x00000000410fd492), "neoverse-n2-r0p2");
  EXPECT_EQ(model_for_midr(0x00000000410fd493), "neoverse-n2");
  EXPECT_EQ(model_for_midr(0x00000000411fd490), "neoverse-n2");  // r1p0
}

}  // namespace
}  // namespace topdown::model
