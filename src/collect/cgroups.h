#pragma once
// --cgroup: the cgroups whose tasks are counted on each CPU, named the way
// perf's -G names them (a path under the cgroup mount).
#include <filesystem>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace topdown::collect {

// How the tasks of cgroups are counted. Perf: one set of counters per cgroup
// and CPU, as perf stat -G does. Bpf: one set per CPU, which a BPF program
// adds to the cgroup that ran at each cgroup switch (bpf_cgroups.h).
// Automatic: Bpf where it is possible (cgroup_counting_unavailable), else Perf.
enum class CgroupCounting { Automatic, Bpf, Perf };

struct Cgroup {
  // Its path under the mount, from "/": "/system.slice/nginx.service",
  // "/kubepods/burstable/pod1234"; "/" for the root cgroup. Series and
  // reports are labelled with it.
  std::string name;
  std::filesystem::path directory;
};

// The mount that perf_event_open takes cgroup directories from, out of
// /proc/self/mountinfo's text: a cgroup v1 hierarchy with the perf_event
// controller when there is one, else the cgroup2 mount; nullopt for neither.
std::optional<std::filesystem::path> perf_cgroup_mount(std::string_view mountinfo);

// A cgroup as --cgroup gives it: a path under `mount` ("/system.slice/x" or
// "system.slice/x", the way perf -G takes it), or the full path of its
// directory. Throws Error naming `option` and `given` when no such cgroup exists.
Cgroup find_cgroup(std::string_view given, const std::filesystem::path& mount, std::string_view option = "--cgroup");

// --cgroups-under PATH --cgroup-depth N: `top` and every cgroup below it
// to `depth` levels (1: its children), found again at every interval, so
// that cgroups made and removed while counting (containers, services) are
// followed.
struct CgroupTree {
  Cgroup top;
  int depth = 1;
};

// The cgroups of `tree` as its directories are now, `top` first, then by
// name; none when `top` is gone.
std::vector<Cgroup> cgroups_in(const CgroupTree& tree);

// `given` under this machine's mount, as find_cgroups finds it, with `depth`.
CgroupTree find_cgroup_tree(std::string_view given, int depth,
                            const std::filesystem::path& mountinfo = "/proc/self/mountinfo");

// Each of `given` under this machine's mount. Throws Error when the machine
// has no cgroup mount that perf can count, or a cgroup does not exist.
std::vector<Cgroup> find_cgroups(const std::vector<std::string>& given,
                                 const std::filesystem::path& mountinfo = "/proc/self/mountinfo");

}  // namespace topdown::collect
