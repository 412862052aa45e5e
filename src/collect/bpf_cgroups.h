#pragma once
// --cgroup-counting bpf: the tasks of many cgroups counted with one set of
// counters per CPU. The plan's groups are opened once on each CPU; a BPF
// program (bpf/cgroup_counts.bpf.c) run at every cgroup switch adds what
// each event advanced to the cgroups of the task that ran, and is run on
// every CPU again just before each read, so the running task's share is
// in. Each cgroup's places are labelled "CPU3" with its name, as
// CounterSet's are for the perf-event way, with its own enabled and running
// times: the time its tasks ran with the events enabled, and the part of it
// the events were on a counter (multiplexing). Private to the collect stage.
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "collect/collect.h"

namespace topdown::collect {

class BpfCgroups {
 public:
  // Opens `groups` on each of `cpus` (a group led by an uncore event has no
  // task to count and is left out, as the perf-event way leaves it out),
  // loads the program and counts `cgroups`, or the cgroups of `tree` as they
  // are now and as they come and go. Throws Error saying why it cannot.
  BpfCgroups(std::vector<Cgroup> cgroups, std::optional<CgroupTree> tree, std::vector<int> cpus,
             const std::vector<CounterGroup>& groups, const Options& options);
  BpfCgroups(const BpfCgroups&) = delete;
  BpfCgroups& operator=(const BpfCgroups&) = delete;
  ~BpfCgroups();

  // Starts the counters.
  void enable() const;

  // With a tree, finds its cgroups again (a new one counts from now on, one
  // removed is read this once more and forgotten); then each cgroup's
  // running totals on each CPU.
  std::vector<counts::Place> read();

 private:
  struct State;
  std::unique_ptr<State> state_;
};

// Why this build and kernel cannot count the BPF way on `cpu`: a build
// without libbpf, or the program, the cgroup-switches event or a run of the
// program there refused (a trial, undone); nullopt when they work. Says
// "--cgroup-counting bpf: WHAT: WHY".
std::optional<std::string> bpf_refused(int cpu);

}  // namespace topdown::collect
