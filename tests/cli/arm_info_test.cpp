// topdown info --root on the fake sysfs trees of Arm machines lists each kind
// of core: its MIDR's fields, its model and its PMU.
#include <gtest/gtest.h>

#include "run_command.h"

namespace topdown::testing {
namespace {

const std::string kTopdown = TOPDOWN_BIN;
const std::string kData = std::string(TOPDOWN_SOURCE_DIR) + "/tests/data/";

TEST(ArmInfo, NeoverseV2HasOneCoreKind) {
  auto r = run_command(kTopdown + " info --root " + kData + "sysfs-neoverse-v2");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  // MIDR 0x410fd4f1 on cpus 0-3: implementer 0x41, variant 0, part 0xD4F,
  // revision 1; armv8_pmuv3_0 is type 10 and counts on cpus 0-3.
  EXPECT_NE(r.err.find("cpu:            Arm family 0x41 model 0xD4F stepping 1 (implementer 0x41 part 0xD4F r0p1)\n"
                       "core kind:      cpus 0-3: implementer 0x41 part 0xD4F r0p1, model neoverse-v2 (Arm "
                       "Neoverse V2), pmu armv8_pmuv3_0 (type 10)\n"
                       "online cpus:    4\n"),
            std::string::npos)
      << r.err;
  EXPECT_NE(r.err.find("pmus:           arm_cmn_0, armv8_pmuv3_0, software\n"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("perf_event_paranoid: 2\n"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("health check not run"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("model:          neoverse-v2 (Arm Neoverse V2)\n"), std::string::npos) << r.err;
}

TEST(ArmInfo, BigLittleListsEachCoreKindWithItsPmu) {
  auto r = run_command(kTopdown + " info --root " + kData + "sysfs-biglittle");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  // 0x410fd8b0 on cpus 0-5 (C1-Pro r0p0), 0x411fd8c1 on cpus 6-7 (C1-Ultra
  // r1p1); the big cores, numbered last, choose the model.
  EXPECT_NE(r.err.find("core kind:      cpus 0-5: implementer 0x41 part 0xD8B r0p0, model arm-c1-pro (Arm C1 Pro), "
                       "pmu armv8_pmuv3_0 (type 10)\n"
                       "core kind:      cpus 6-7: implementer 0x41 part 0xD8C r1p1, model arm-c1-ultra (Arm C1 "
                       "Ultra), pmu armv8_pmuv3_1 (type 11)\n"),
            std::string::npos)
      << r.err;
  EXPECT_NE(r.err.find("cpu:            Arm family 0x41 model 0xD8C stepping 17 "), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("model:          arm-c1-ultra (Arm C1 Ultra)\n"), std::string::npos) << r.err;
}

TEST(ArmInfo, AMissingRootIsAUsageError) {
  auto r = run_command(kTopdown + " info --root " + kData + "no-such-tree");
  EXPECT_EQ(r.exit_code, 125);
  EXPECT_NE(r.err.find("no-such-tree"), std::string::npos) << r.err;
  EXPECT_TRUE(r.out.empty());
}

}  // namespace
}  // namespace topdown::testing
