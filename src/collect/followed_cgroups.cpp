#include "collect/followed_cgroups.h"

#include <fcntl.h>
#include <unistd.h>

#include <set>
#include <system_error>

namespace topdown::collect {

FollowedCgroups::FollowedCgroups(CgroupTree tree, std::vector<int> cpus, const std::vector<CounterGroup>& groups,
                                 const Options& options)
    : tree_(std::move(tree)), cpus_(std::move(cpus)), groups_(groups), options_(options) {
  for (const Cgroup& cgroup : cgroups_in(tree_)) open(cgroup, /*start=*/false);
}

void FollowedCgroups::enable() const {
  for (const auto& [name, cgroup] : counted_) cgroup.counters->enable();
}

// A cgroup removed between the walk that found it and here is left out: it
// would be closed at the next read anyway.
void FollowedCgroups::open(const Cgroup& cgroup, bool start) {
  Fd directory(::open(cgroup.directory.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC));
  if (!directory.valid()) return;
  std::vector<Placement> placements;
  for (const int cpu : cpus_)
    placements.push_back({directory.get(), cpu, false, "CPU" + std::to_string(cpu), cgroup.name});
  try {
    auto counters = std::make_unique<CounterSet>(groups_, placements, options_, Start::OnEnable);
    if (start) counters->enable();
    counted_.emplace(cgroup.name, Counted{std::move(directory), std::move(counters)});
  } catch (const Error&) {
    std::error_code error;
    if (std::filesystem::is_directory(cgroup.directory, error)) throw;
  }
}

std::vector<counts::Place> FollowedCgroups::read() {
  std::set<std::string> present;
  for (const Cgroup& cgroup : cgroups_in(tree_)) {
    present.insert(cgroup.name);
    if (counted_.count(cgroup.name) == 0) open(cgroup, /*start=*/true);
  }
  std::vector<counts::Place> places;
  for (auto it = counted_.begin(); it != counted_.end();) {
    for (counts::Place& place : it->second.counters->read()) places.push_back(std::move(place));
    it = present.count(it->first) != 0 ? std::next(it) : counted_.erase(it);
  }
  return places;
}

}  // namespace topdown::collect
