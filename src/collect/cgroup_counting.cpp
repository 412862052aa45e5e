// Which way cgroups are counted: BPF where it can be, perf events otherwise.
#include <linux/capability.h>
#include <linux/magic.h>
#include <sys/statfs.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <array>

#include "collect/bpf_cgroups.h"
#include "collect/collect.h"
#include "common/error.h"

namespace topdown::collect {
namespace {

bool has_capability(const std::array<__user_cap_data_struct, _LINUX_CAPABILITY_U32S_3>& data, int capability) {
  const auto word = static_cast<size_t>(capability / 32);
  return (data[word].effective & (1U << static_cast<unsigned>(capability % 32))) != 0;
}

// Loading a program that reads counters of every task needs CAP_BPF and
// CAP_PERFMON (or CAP_SYS_ADMIN, which root has).
bool may_load_counting_programs() {
  __user_cap_header_struct header{_LINUX_CAPABILITY_VERSION_3, 0};
  std::array<__user_cap_data_struct, _LINUX_CAPABILITY_U32S_3> data{};
  if (::syscall(SYS_capget, &header, data.data()) != 0) return ::geteuid() == 0;
  return has_capability(data, CAP_SYS_ADMIN) || (has_capability(data, CAP_BPF) && has_capability(data, CAP_PERFMON));
}

}  // namespace

std::optional<std::string> cgroup_counting_unavailable(const std::filesystem::path& mount) {
  struct statfs filesystem {};
  if (::statfs(mount.c_str(), &filesystem) == 0 && filesystem.f_type != CGROUP2_SUPER_MAGIC) {
    return "--cgroup-counting bpf: the cgroups are under a cgroup v1 hierarchy (" + mount.string() +
           "), and the BPF program finds a task's cgroups in cgroup v2";
  }
  if (!may_load_counting_programs()) {
    return "--cgroup-counting bpf: needs root, or CAP_BPF and CAP_PERFMON";
  }
  const std::vector<int> online = select_cpus("");
  return bpf_refused(online.empty() ? 0 : online.front());
}

CgroupCounting choose_cgroup_counting(CgroupCounting asked, const std::filesystem::path& mount) {
  if (asked == CgroupCounting::Perf) return asked;
  const std::optional<std::string> why_not = cgroup_counting_unavailable(mount);
  if (!why_not) return CgroupCounting::Bpf;
  if (asked == CgroupCounting::Bpf) throw Error(*why_not + "; leave out --cgroup-counting or use perf");
  return CgroupCounting::Perf;
}

}  // namespace topdown::collect
