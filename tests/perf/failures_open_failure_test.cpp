// docs/failures.md, "PMU unavailable": one explanation per errno and
// kernel.perf_event_paranoid setting, each saying what to change.
#include <gtest/gtest.h>

#include <cerrno>

#include "../support/temp_tree.h"
#include "perf/open_failure.h"

namespace topdown::perf {
namespace {

const char* const kEvent = "cannot count 'ex_ret_instr' (type 4, config 0xc0, config1 0x0): ";

Event retired_instructions() {
  Event event;
  event.name = "ex_ret_instr";
  event.config = 0xc0;
  return event;
}

class FailuresOpen : public ::testing::Test {
 protected:
  // A fake /sys/bus/event_source/devices with a core PMU.
  void SetUp() override { sysfs_.write("cpu/type", "4\n"); }
  std::string explain(int err, const std::string& paranoid, const Event& event = retired_instructions()) {
    return explain_open_failure(err, event, sysfs_.root(), paranoid);
  }
  testing::TempTree sysfs_;
};

TEST_F(FailuresOpen, ParanoidAboveTwoForbidsEverythingAndAsksForTwo) {
  for (const char* paranoid : {"3", "4"}) {
    EXPECT_EQ(explain(EACCES, paranoid),
              std::string(kEvent) + "not permitted: kernel.perf_event_paranoid is " + paranoid +
                  ", which forbids performance counters to users without CAP_PERFMON; allow counting user space "
                  "with 'sudo sysctl kernel.perf_event_paranoid=2', or run topdown with sudo");
  }
}

TEST_F(FailuresOpen, ParanoidTwoAllowsOnlyUserSpace) {
  EXPECT_EQ(explain(EACCES, "2"),
            std::string(kEvent) +
                "not permitted: kernel.perf_event_paranoid is 2, which allows counting only user space of your own "
                "processes; leave out --kernel, kernel-only events (:SUP) and -a/-C, or allow kernel counting with "
                "'sudo sysctl kernel.perf_event_paranoid=1'");
  Event kernel_only = retired_instructions();
  kernel_only.exclude_user = true;
  EXPECT_NE(explain(EPERM, "2", kernel_only).find("your own processes and this event counts only the kernel; "),
            std::string::npos);
}

TEST_F(FailuresOpen, ParanoidOneOrLessPointsAtCpusAndSecurityModules) {
  for (const char* paranoid : {"1", "0", "-1"}) {
    EXPECT_EQ(explain(EACCES, paranoid),
              std::string(kEvent) + "not permitted although kernel.perf_event_paranoid is " + paranoid +
                  ": counting whole CPUs (-a, -C) needs 0 or less, and a security module (SELinux, AppArmor) or a "
                  "container's seccomp filter may forbid perf_event_open; run topdown with sudo or give it "
                  "CAP_PERFMON");
  }
}

TEST_F(FailuresOpen, UnreadableOrGarbledParanoid) {
  for (const char* paranoid : {"", "two", "2x"}) {
    EXPECT_EQ(explain(EACCES, paranoid),
              std::string(kEvent) +
                  "not permitted (kernel.perf_event_paranoid is unreadable); allow it with 'sudo sysctl "
                  "kernel.perf_event_paranoid=1' or give topdown CAP_PERFMON")
        << paranoid;
  }
}

TEST_F(FailuresOpen, NoPmuWinsOverParanoidForEveryMissingDeviceErrno) {
  testing::TempTree empty;  // no core PMU registered: a VM without a virtual PMU
  for (int err : {ENOENT, ENODEV, EOPNOTSUPP}) {
    for (const char* paranoid : {"-1", "2", "4"}) {
      EXPECT_EQ(explain_open_failure(err, retired_instructions(), empty.root(), paranoid),
                std::string(kEvent) +
                    "no hardware PMU: this kernel exposes no CPU performance counters (a VM without a virtual PMU?); "
                    "enable the vPMU in the hypervisor or run on bare metal")
          << err << " " << paranoid;
    }
  }
}

TEST_F(FailuresOpen, MissingDeviceErrnosOnARealPmuBlameTheEvent) {
  EXPECT_EQ(explain(ENOENT, "2"), std::string(kEvent) +
                                      "the PMU does not support this event or its modifiers (No such file or "
                                      "directory); check that the event exists on this CPU and drop precise or "
                                      "user/kernel modifiers");
  EXPECT_NE(explain(ENODEV, "2").find("its modifiers (No such device); "), std::string::npos);
  EXPECT_NE(explain(EOPNOTSUPP, "2").find("its modifiers (Operation not supported); "), std::string::npos);
}

}  // namespace
}  // namespace topdown::perf
