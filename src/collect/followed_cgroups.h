#pragma once
// --cgroups-under: the counters of a tree of cgroups that changes while it
// is counted. Each cgroup's groups are opened on each CPU when it is first
// found and closed after the read that follows its removal, which still
// hands out its last counts; the other cgroups' counters run on untouched.
// Private to the collect stage.
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "collect/collect.h"
#include "collect/counter_set.h"
#include "common/fd.h"

namespace topdown::collect {

class FollowedCgroups {
 public:
  // Opens the counters of every cgroup of `tree` as it is now.
  FollowedCgroups(CgroupTree tree, std::vector<int> cpus, const std::vector<CounterGroup>& groups,
                  const Options& options);

  // Starts them (counters opened later start as they open).
  void enable() const;

  // Finds the cgroups again, opening and starting those new, then reads
  // every cgroup's running totals (CounterSet::read, "CPU3" labels with the
  // cgroup's name); cgroups that are gone are read this once more and closed.
  std::vector<counts::Place> read();

  size_t counted() const { return counted_.size(); }

 private:
  struct Counted {
    Fd directory;
    std::unique_ptr<CounterSet> counters;
  };
  void open(const Cgroup& cgroup, bool start);

  const CgroupTree tree_;
  const std::vector<int> cpus_;
  const std::vector<CounterGroup>& groups_;
  const Options options_;
  std::map<std::string, Counted> counted_;  // by cgroup name
};

}  // namespace topdown::collect
