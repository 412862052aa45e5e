#include <gtest/gtest.h>

#include <cerrno>

#include "../support/temp_tree.h"
#include "perf/open_failure.h"

namespace topdown::perf {
namespace {

// A fake /sys/bus/event_source/devices, with or without a core PMU.
class OpenFailure : public ::testing::Test {
 protected:
  void SetUp() override {
    std::filesystem::create_directories(root_ / "software");
    std::ofstream(root_ / "software" / "type") << "1\n";
  }

  void add_pmu(const std::string& name) {
    std::filesystem::create_directories(root_ / name);
    std::ofstream(root_ / name / "type") << "4\n";
  }

  static Event retired_instructions() {
    Event event;
    event.name = "ex_ret_instr";
    event.type = 4;
    event.config = 0xc0;
    return event;
  }

  testing::TempTree sysfs_;
  const std::filesystem::path& root_ = sysfs_.root();
};

TEST_F(OpenFailure, PmuAvailableNeedsACorePmu) {
  EXPECT_FALSE(pmu_available(root_));
  add_pmu("cpu");
  EXPECT_TRUE(pmu_available(root_));
}

TEST_F(OpenFailure, HybridCorePmuCounts) {
  add_pmu("cpu_core");
  EXPECT_TRUE(pmu_available(root_));
}

TEST_F(OpenFailure, ArmCorePmuCounts) {
  add_pmu("arm_cmn_0");  // uncore: no cpus list
  EXPECT_FALSE(pmu_available(root_));
  add_pmu("armv8_pmuv3_0");
  EXPECT_TRUE(pmu_available(root_));
}

TEST_F(OpenFailure, PmuWithACpuListCountsAsArmCore) {
  add_pmu("apple_firestorm_pmu");
  EXPECT_FALSE(pmu_available(root_));
  std::ofstream(root_ / "apple_firestorm_pmu" / "cpus") << "4-7\n";
  EXPECT_TRUE(pmu_available(root_));
}

TEST_F(OpenFailure, MissingDirectoryMeansNoPmu) { EXPECT_FALSE(pmu_available(root_ / "absent")); }

TEST_F(OpenFailure, NoPmuAtAll) {
  for (int err : {ENOENT, EOPNOTSUPP, ENODEV}) {
    const std::string message = explain_open_failure(err, retired_instructions(), root_, "2");
    EXPECT_EQ(message,
              "cannot count 'ex_ret_instr' (type 4, config 0xc0, config1 0x0): no hardware PMU: this kernel "
              "exposes no CPU performance counters (a VM without a virtual PMU?); enable the vPMU in the "
              "hypervisor or run on bare metal")
        << "errno " << err;
  }
}

TEST_F(OpenFailure, UnsupportedEventOnARealPmu) {
  add_pmu("cpu");
  const std::string message = explain_open_failure(ENOENT, retired_instructions(), root_, "2");
  EXPECT_EQ(message.find("no hardware PMU"), std::string::npos);
  EXPECT_NE(message.find("'ex_ret_instr'"), std::string::npos);
  EXPECT_NE(message.find("the PMU does not support this event or its modifiers"), std::string::npos);
  EXPECT_NE(explain_open_failure(EOPNOTSUPP, retired_instructions(), root_, "2").find("does not support"),
            std::string::npos);
}

TEST_F(OpenFailure, NotPermittedNamesParanoidAndTheFix) {
  add_pmu("cpu");
  for (int err : {EACCES, EPERM}) {
    EXPECT_EQ(explain_open_failure(err, retired_instructions(), root_, "3"),
              "cannot count 'ex_ret_instr' (type 4, config 0xc0, config1 0x0): not permitted: "
              "kernel.perf_event_paranoid is 3, which forbids performance counters to users without CAP_PERFMON; "
              "allow counting user space with 'sudo sysctl kernel.perf_event_paranoid=2', or run topdown with sudo")
        << "errno " << err;
  }
  EXPECT_NE(explain_open_failure(EACCES, retired_instructions(), root_, "").find("perf_event_paranoid is unreadable"),
            std::string::npos);
}

TEST_F(OpenFailure, RejectedEncodingShowsTheConfig) {
  Event offcore = retired_instructions();
  offcore.name = "OFFCORE_RESPONSE.ALL_DATA_RD";
  offcore.config = 0x01b7;
  offcore.config1 = 0x10091;
  EXPECT_EQ(explain_open_failure(EINVAL, offcore, root_, "2"),
            "cannot count 'OFFCORE_RESPONSE.ALL_DATA_RD' (type 4, config 0x1b7, config1 0x10091): the kernel "
            "rejected this encoding; check the event's umask, cmask and modifiers for this CPU");
}

TEST_F(OpenFailure, TooManyFiles) {
  for (int err : {EMFILE, ENFILE}) {
    EXPECT_EQ(explain_open_failure(err, retired_instructions(), root_, "2"),
              "cannot count 'ex_ret_instr' (type 4, config 0xc0, config1 0x0): too many open files; raise the "
              "limit with 'ulimit -n' or count fewer events")
        << "errno " << err;
  }
}

TEST_F(OpenFailure, OtherErrorsKeepTheSystemMessage) {
  EXPECT_EQ(explain_open_failure(E2BIG, retired_instructions(), root_, "2"),
            "cannot count 'ex_ret_instr' (type 4, config 0xc0, config1 0x0): perf_event_open failed: Argument list "
            "too long");
}

}  // namespace
}  // namespace topdown::perf
