// cgroup_labels on the paths kubelet and systemd make (both cgroup drivers,
// each container runtime's scope) and on paths that only look like them.
#include "serve/cgroup_labels.h"

#include <gtest/gtest.h>

namespace topdown::serve {
namespace {

constexpr const char* kUid = "0f2c7d4e-9a1b-4c3d-8e5f-6a7b8c9d0e1f";
constexpr const char* kUidSystemd = "0f2c7d4e_9a1b_4c3d_8e5f_6a7b8c9d0e1f";
const std::string kId(64, 'a');

TEST(CgroupLabels, SystemdDriverBurstablePodWithContainerdContainer) {
  const std::string path = std::string("/kubepods.slice/kubepods-burstable.slice/kubepods-burstable-pod") +
                           kUidSystemd + ".slice/cri-containerd-" + kId + ".scope";
  EXPECT_EQ(cgroup_labels(path), (Labels{{"pod_uid", kUid}, {"qos", "burstable"}, {"container_id", kId}}));
}

TEST(CgroupLabels, SystemdDriverGuaranteedPodWithCrioAndBestEffortWithDocker) {
  EXPECT_EQ(cgroup_labels(std::string("/kubepods.slice/kubepods-pod") + kUidSystemd + ".slice/crio-" + kId + ".scope"),
            (Labels{{"pod_uid", kUid}, {"qos", "guaranteed"}, {"container_id", kId}}));
  EXPECT_EQ(cgroup_labels(std::string("/kubepods.slice/kubepods-besteffort.slice/kubepods-besteffort-pod") +
                          kUidSystemd + ".slice/docker-" + kId + ".scope"),
            (Labels{{"pod_uid", kUid}, {"qos", "besteffort"}, {"container_id", kId}}));
}

TEST(CgroupLabels, CgroupfsDriverPodsAndContainers) {
  EXPECT_EQ(cgroup_labels(std::string("/kubepods/burstable/pod") + kUid + "/" + kId),
            (Labels{{"pod_uid", kUid}, {"qos", "burstable"}, {"container_id", kId}}));
  EXPECT_EQ(cgroup_labels(std::string("/kubepods/pod") + kUid + "/" + kId),
            (Labels{{"pod_uid", kUid}, {"qos", "guaranteed"}, {"container_id", kId}}));
  EXPECT_EQ(cgroup_labels(std::string("/kubepods/besteffort/pod") + kUid),
            (Labels{{"pod_uid", kUid}, {"qos", "besteffort"}}));
}

TEST(CgroupLabels, APodLevelCgroupHasNoContainerAndAQosLevelNoPod) {
  EXPECT_EQ(cgroup_labels(std::string("/kubepods.slice/kubepods-burstable.slice/kubepods-burstable-pod") + kUidSystemd +
                          ".slice"),
            (Labels{{"pod_uid", kUid}, {"qos", "burstable"}}));
  EXPECT_EQ(cgroup_labels("/kubepods.slice/kubepods-burstable.slice"), Labels{});
  EXPECT_EQ(cgroup_labels("/kubepods.slice"), Labels{});
}

TEST(CgroupLabels, SystemdServicesAndScopesNameTheirUnit) {
  EXPECT_EQ(cgroup_labels("/system.slice/nginx.service"), (Labels{{"systemd_unit", "nginx.service"}}));
  EXPECT_EQ(cgroup_labels("/user.slice/user-1000.slice/session-3.scope"),
            (Labels{{"systemd_unit", "session-3.scope"}}));
  EXPECT_EQ(cgroup_labels("/system.slice"), Labels{});
  EXPECT_EQ(cgroup_labels("/web"), Labels{});
  EXPECT_EQ(cgroup_labels("/"), Labels{});
}

TEST(CgroupLabels, TextOfAnyOtherShapeIsNeverALabel) {
  // A pod UID or container ID that is not hex of the right shape: no label.
  EXPECT_EQ(cgroup_labels("/kubepods/burstable/pod\x1b[31mred\x1b[0m/" + kId), Labels{});
  EXPECT_EQ(cgroup_labels(std::string("/kubepods/pod") + kUid + "x/" + kId), Labels{});
  EXPECT_EQ(cgroup_labels(std::string("/kubepods/pod") + kUid + "/not\"hex\n"),
            (Labels{{"pod_uid", kUid}, {"qos", "guaranteed"}}));
  EXPECT_EQ(cgroup_labels(std::string("/kubepods/pod") + kUid + "/ABCDEF0123456789"),
            (Labels{{"pod_uid", kUid}, {"qos", "guaranteed"}}));
}

}  // namespace
}  // namespace topdown::serve
