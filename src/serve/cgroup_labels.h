#pragma once
// Labels that say what a cgroup is, read from its path alone: the pod and
// container of a Kubernetes node (kubelet's systemd and cgroupfs drivers;
// containerd, CRI-O and Docker scopes) and the systemd unit of a service.
// Only values of the shape they must have are taken (a pod UID of hex and
// dashes, a container ID of hex), so no label carries arbitrary text from a
// path; the exposition escapes every label value besides.
#include <string_view>

#include "serve/snapshot.h"

namespace topdown::serve {

// pod_uid, container_id, qos (guaranteed, burstable, besteffort) and
// systemd_unit (not `unit`: Info metrics' series carry that label), each
// only where the path shows it; none for any other path.
Labels cgroup_labels(std::string_view cgroup);

}  // namespace topdown::serve
